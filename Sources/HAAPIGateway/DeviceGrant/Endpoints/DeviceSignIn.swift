/// What a sign-in started from the verification page knows of its device: where its tokens go (the device
/// authorization in the store, which the device's next poll collects) and the name the person was shown. A class: every
/// sign-in holds room for one, and most have none (a pointer's room instead of the value's).
final class DeviceSignIn: Sendable {
    /// The device authorization's reference (``DeviceAuthorization/reference``).
    let reference: String
    /// The device client that asked.
    let client: DeviceClient
    let store: any DeviceAuthorizationStore

    init(reference: String, client: DeviceClient, store: any DeviceAuthorizationStore) {
        self.reference = reference
        self.client = client
        self.store = store
    }

    /// How the outcome document names who started the sign-in.
    var starter: SignInStarter {
        SignInStarter(kind: "device", client: client.id, reference: reference)
    }
}
