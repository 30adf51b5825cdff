import Foundation

/// A file of the templates' `assets/` (built in, `templates.directory`'s or the override directory's) served at `/assets/{name}`: stylesheets,
/// the pages' scripts and images. Only names of lowercase letters, digits, dots and hyphens with a known extension are
/// loaded, so a request can never name anything else.
struct StaticAsset: Sendable {
    let name: String
    let contentType: String
    let bytes: Data

    /// The media type for each servable extension.
    static let contentTypes = [
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
    ]

    /// The media type for a file name, or nil when the name is not one that may be served.
    static func contentType(forName name: String) -> String? {
        guard name.count <= 64, let first = name.first, first.isASCII, first.isLetter || first.isNumber,
            name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "." || $0 == "-") }), !name.contains("..")
        else { return nil }
        return contentTypes[String(name.split(separator: ".").last ?? "")]
    }

    /// The servable files of a layer's `assets/` by name; a file whose name may not be served is left out.
    static func servable(_ files: [String: Data]) -> [String: StaticAsset] {
        var assets: [String: StaticAsset] = [:]
        for (name, bytes) in files {
            guard let contentType = contentType(forName: name) else { continue }
            assets[name] = StaticAsset(name: name, contentType: contentType, bytes: bytes)
        }
        return assets
    }
}
