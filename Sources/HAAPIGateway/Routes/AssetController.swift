import Foundation
import HTTPTypes
import Hummingbird

/// `GET /assets/{name}`: the files of `templates/assets/` (stylesheet, the pages' scripts), `theme.css` made from the
/// theme settings, and `logo` when one is configured. Anything else is 404; names are looked up, never joined to a path.
struct AssetController: Sendable {
    let live: LiveSettings

    /// The name of the stylesheet made from the theme settings.
    static let themeStylesheetName = "theme.css"
    /// The name the configured logo is served under.
    static let logoName = "logo"

    func register(on router: Router<GatewayRequestContext>) {
        router.get("/assets/:name") { _, context in
            guard let name = context.parameters.get("name"), let (contentType, bytes) = asset(named: name) else {
                return Response(
                    status: .notFound,
                    headers: [.contentType: "text/plain; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: "not found\n"))
                )
            }
            // Assets change only with a reload or a new release; a short lifetime keeps both visible soon.
            return Response(
                status: .ok,
                headers: [.contentType: contentType, .cacheControl: "public, max-age=300"],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes))
            )
        }
    }

    /// The media type and bytes of an asset, or nil.
    func asset(named name: String) -> (String, Data)? {
        switch name {
        case Self.themeStylesheetName:
            return ("text/css; charset=utf-8", live.snapshot.themeStylesheet)
        case Self.logoName:
            return live.snapshot.renderer.theme.logo.map { ($0.contentType, $0.bytes) }
        default:
            return live.snapshot.renderer.templates.assets[name].map { ($0.contentType, $0.bytes) }
        }
    }
}
