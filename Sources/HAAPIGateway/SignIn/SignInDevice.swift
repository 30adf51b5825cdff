/// The device a sign-in is for, as its record keeps it: the device authorization's reference and the client's id and
/// name (never its secret).
struct SignInDevice: Sendable, Codable, Equatable {
    let reference: String
    let clientID: String
    let clientName: String
}
