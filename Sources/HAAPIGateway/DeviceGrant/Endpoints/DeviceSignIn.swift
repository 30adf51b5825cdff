import HAAPI

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

    /// The device a stored sign-in's record names (``SignInRecord/device``), its tokens going to `store`; nil without
    /// either.
    convenience init?(_ device: SignInDevice?, store: (any DeviceAuthorizationStore)?) {
        guard let device, let store else { return nil }
        self.init(reference: device.reference, client: DeviceClient(id: device.clientID, name: device.clientName), store: store)
    }

    /// Tells the device that its sign-in ended without tokens (`access_denied` at its next poll); an unreachable store
    /// leaves it waiting until the code expires (`expired_token`).
    func deny(logger: FlowLogger) async {
        do {
            try await store.deny(reference: reference)
        } catch {
            logger.warning("the device could not be told that the sign-in ended; it hears expired_token when its code expires")
        }
    }

    /// How the outcome document names who started the sign-in.
    var starter: SignInStarter {
        SignInStarter(kind: "device", client: client.id, reference: reference)
    }
}
