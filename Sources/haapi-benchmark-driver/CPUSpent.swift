/// The CPU time one part of a round cost the client and the gateway (nil when it was not read), in microseconds.
struct CPUSpent: Codable {
    var clientMicroseconds = 0.0
    var gatewayMicroseconds: Double?
}
