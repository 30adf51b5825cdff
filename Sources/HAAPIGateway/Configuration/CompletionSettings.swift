import Foundation

/// What the person sees at the end of a sign-in and around cancelling.
public struct CompletionSettings: Sendable {
    /// Where the browser goes after a successful sign-in; `nil` shows the gateway's "signed in" page.
    public var redirectURL: URL?
    /// Whether "Cancel sign-in" asks for confirmation first (default true).
    public var confirmCancel: Bool

    /// Creates completion settings.
    /// - Parameters:
    ///   - redirectURL: The page after success, or `nil` for the gateway's own page.
    ///   - confirmCancel: Whether cancelling asks for confirmation.
    public init(redirectURL: URL? = nil, confirmCancel: Bool = true) {
        self.redirectURL = redirectURL
        self.confirmCancel = confirmCancel
    }
}
