/// What a sign-in started from the verification page knows of its device: where its tokens go (the device
/// authorization in the store, which the device's next poll collects) and the name the person was shown.
struct DeviceSignIn: Sendable {
    /// The device authorization's reference (``DeviceAuthorization/reference``).
    let reference: String
    /// The device client that asked.
    let client: DeviceClient
    let store: DeviceAuthorizationStore

    /// How the outcome document names who started the sign-in.
    var starter: SignInStarter {
        SignInStarter(kind: "device", client: client.id, reference: reference)
    }
}
