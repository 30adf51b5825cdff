/// An error of a listener other than the gateway's own (the metrics listener), with the address it was to listen on,
/// so that a failure to bind names the right one.
struct ListenFailure: Error, Sendable {
    let host: String
    let port: Int
    let underlying: any Error
}
