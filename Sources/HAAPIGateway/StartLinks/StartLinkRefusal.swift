/// Why a start link starts no sign-in. The person sees one of two pages (not valid; expired or used); the log names the
/// reason.
enum StartLinkRefusal: Error, Sendable, Equatable {
    /// No `sig`, or one that matches no configured secret.
    case badSignature
    /// No `exp`, or one that is not a whole number of seconds.
    case noExpiry
    /// `exp` has passed.
    case expired
    /// `exp` is further ahead than `startLinks.maximumLifetimeSeconds` allows.
    case lifetimeTooLong
    /// A parameter that is not `ref`, `exp`, `sig` or an allowed authorize parameter, or one given twice.
    case parameterNotAllowed(String)
    /// `ref` longer than 200 characters or with control characters.
    case badReference
    /// The link was used already (each link starts one sign-in).
    case alreadyUsed

    /// Whether the person is told the link expired or was used (rather than that it is not valid).
    var isStale: Bool { self == .expired || self == .alreadyUsed }

    /// For the log line.
    var reason: String {
        switch self {
        case .badSignature: "signature"
        case .noExpiry: "no expiry"
        case .expired: "expired"
        case .lifetimeTooLong: "lifetime too long"
        case .parameterNotAllowed(let name): "parameter \(name.prefix(40)) not allowed"
        case .badReference: "reference"
        case .alreadyUsed: "already used"
        }
    }
}
