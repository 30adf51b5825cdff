/// The `type` of a representation: known step types plus any other string.
public struct RepresentationType: RawRepresentable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The type string.
    public let rawValue: String
    /// Creates a type.
    /// - Parameter rawValue: The type string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a type from a literal.
    /// - Parameter value: The type string.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The type string.
    public var description: String { rawValue }

    /// `authentication-step`
    public static let authenticationStep: RepresentationType = "authentication-step"
    /// `registration-step`
    public static let registrationStep: RepresentationType = "registration-step"
    /// `user-consent-step`
    public static let userConsentStep: RepresentationType = "user-consent-step"
    /// `consentor-step`
    public static let consentorStep: RepresentationType = "consentor-step"
    /// `polling-step`
    public static let pollingStep: RepresentationType = "polling-step"
    /// `redirection-step`
    public static let redirectionStep: RepresentationType = "redirection-step"
    /// `continue-same-step`
    public static let continueSameStep: RepresentationType = "continue-same-step"
    /// `oauth-authorization-response`
    public static let oauthAuthorizationResponse: RepresentationType = "oauth-authorization-response"
}
