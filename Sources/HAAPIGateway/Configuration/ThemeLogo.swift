import Foundation

/// A logo image read from `theme.logoFile`, served at `/assets/logo`.
public struct ThemeLogo: Sendable, Equatable {
    /// The image's bytes.
    public var bytes: Data
    /// Its media type, from the file's extension.
    public var contentType: String

    /// The largest logo accepted.
    public static let maximumBytes = 256 * 1024
    /// The media type for each accepted file extension.
    public static let contentTypes = [
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "webp": "image/webp", "gif": "image/gif",
    ]

    /// Creates a logo.
    public init(bytes: Data, contentType: String) {
        self.bytes = bytes
        self.contentType = contentType
    }
}
