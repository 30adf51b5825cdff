/// What a round of `sign-ins` cost in CPU, part by part: the direct sign-in (the HAAPI library's flow in the client),
/// the sign-in through the gateway (the browser in the client, the gateway's own work in the gateway) and the plain
/// exchange.
struct RoundCPU: Codable {
    var direct = CPUSpent()
    var gateway = CPUSpent()
    var exchange = CPUSpent()
}
