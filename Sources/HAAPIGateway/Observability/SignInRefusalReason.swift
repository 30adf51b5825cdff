/// Why a new sign-in was refused before any upstream call: the `reason` of `haapi_gateway_sign_ins_refused_total`.
enum SignInRefusalReason: String, CaseIterable, Sendable {
    /// The client address started `sessions.maximumNewSessionsPerAddress` sign-ins (a device's authorization among
    /// them) within `sessions.newSessionWindowSeconds`.
    case addressBudget = "address_budget"
    /// `sessions.maximumSessions` sign-ins are held and none could be pushed out.
    case sessionsFull = "sessions_full"
    /// `devices.maximumPendingAuthorizations` device sign-ins are waiting.
    case devicesFull = "devices_full"
    /// A public device client's address has `devices.maximumPendingPerAddress` device sign-ins waiting.
    case devicesAddressFull = "devices_address_full"
}
