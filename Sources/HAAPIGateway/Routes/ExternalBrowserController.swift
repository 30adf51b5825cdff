import Foundation
import HAAPI
import HTTPTypes
import Hummingbird

/// `GET /external-browser/return?_resume_nonce=…`: where the external browser of an `external-browser-flow` operation
/// comes back (its launch link names this address as `redirect_uri`). Nothing is submitted by this GET: the page puts the
/// code into the step's resume form, and its script hands the code to the tab that opened the browser, which checks the
/// sender's window and origin and posts the form; without a script the person presses Continue here.
struct ExternalBrowserController: Sendable {
    let services: GatewayServices
    let signIns: BrowserSignIns

    /// The longest resume code accepted (Curity's and the demo's are far shorter).
    static let maximumCodeLength = 512

    func register(on router: Router<GatewayRequestContext>) {
        router.get(RouterPath(stringLiteral: StepPageBuilder.externalBrowserReturnPath)) { request, context in
            let session = try await signIns.session(request, context: context, for: .reading).session
            let renderer = services.settings(for: context).renderer
            let language = renderer.language(for: request)
            let code = request.uri.queryParameters.get("_resume_nonce") ?? ""
            let snapshot = await session.snapshot()
            guard Self.isPlausibleCode(code), let step = snapshot.step, snapshot.phase == .step,
                let field = Self.resumeFieldName(in: step)
            else {
                // Not (or no longer) waiting for an external browser: the current page, as at `/`.
                return signIns.redirectHome()
            }
            let filled = SessionSnapshot(
                phase: snapshot.phase,
                step: step,
                version: snapshot.version,
                csrfToken: snapshot.csrfToken,
                notices: snapshot.notices,
                fieldErrors: snapshot.fieldErrors,
                values: snapshot.values.merging([field: code]) { _, new in new }
            )
            return PageRenderer.response(
                renderer.externalBrowserReturnPage(for: filled, resumeCode: code, language: language, origin: services.origin(of: request))
            )
        }
    }

    /// A resume code is printable ASCII without spaces, of bounded length.
    static func isPlausibleCode(_ code: String) -> Bool {
        !code.isEmpty && code.count <= maximumCodeLength && code.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7f }
    }

    /// The context field of the step's external-browser continue form, if the step is waiting for an external browser.
    static func resumeFieldName(in step: Representation) -> String? {
        for action in step.actions {
            guard let operation = action.clientOperation, operation.name == ClientOperation.Name.externalBrowserFlow else { continue }
            for next in operation.continueActions {
                if let field = next.form?.fields.first(where: { $0.type == .context }) { return field.name }
            }
        }
        return nil
    }
}
