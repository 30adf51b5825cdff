import HTTPTypes
import Hummingbird
import Logging

/// Renders every error as an HTML page in the request's language: ``GatewayError`` with its catalogue text, Hummingbird's
/// HTTP errors by status, anything else as a generic failure (never its description, which may carry upstream detail).
/// The page is rendered with the request's own settings (``RequestSettings``), those its controller used.
struct ErrorPageMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext
    let live: LiveSettings

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let renderer = context.settings.snapshot(from: live).renderer
        do {
            return try await next(request, context)
        } catch let error as GatewayError {
            context.logger.info("gateway error page", metadata: ["code": "\(error.code.rawValue)"])
            var headers: HTTPFields = error.retryAfterSeconds.map { [.retryAfter: String($0)] } ?? [:]
            if let cookie = error.setCookie { headers[.setCookie] = cookie }
            return PageRenderer.response(
                Self.page(for: error, renderer: renderer, language: renderer.language(for: request)),
                status: error.status,
                headers: headers
            )
        } catch is UnreadableSignIn {
            // `/` starts that sign-in again with a notice.
            return Response(status: .seeOther, headers: [.location: "/"])
        } catch let error as any HTTPResponseError {
            let message: MessageKey = error.status == .contentTooLarge ? .requestTooLarge : .requestNotHandled
            return PageRenderer.response(
                renderer.messagePage(title: .gateway(.refusedTitle), message: .gateway(message), language: renderer.language(for: request)),
                status: error.status
            )
        } catch {
            context.logger.error("unexpected error", metadata: ["type": "\(type(of: error))"])
            return PageRenderer.response(
                renderer.messagePage(
                    title: .gateway(.errorTitle),
                    message: .gateway(.requestNotHandled),
                    startAgain: true,
                    language: renderer.language(for: request)
                ),
                status: .internalServerError
            )
        }
    }

    private static func page(for error: GatewayError, renderer: PageRenderer, language: String) -> String {
        switch error.code {
        case .sessionExpired:
            renderer.messagePage(
                title: .gateway(.sessionExpiredTitle),
                message: .gateway(error.text ?? .sessionExpired),
                startAgain: true,
                language: language
            )
        case .upstreamUnavailable:
            renderer.messagePage(
                title: .gateway(.upstreamUnavailableTitle),
                message: .gateway(error.text ?? .upstreamUnavailable),
                tryAgain: true,
                language: language
            )
        case .forbidden:
            renderer.messagePage(
                title: .gateway(.refusedTitle),
                message: .gateway(error.text ?? .formNotVerified),
                startAgain: true,
                language: language
            )
        case .upstreamNotReady:
            renderer.messagePage(
                title: .gateway(.upstreamUnavailableTitle),
                message: .gateway(error.text ?? .signInUnavailable),
                tryAgain: true,
                language: language
            )
        case .storeUnavailable:
            renderer.messagePage(
                title: .gateway(.upstreamUnavailableTitle),
                message: .gateway(error.text ?? .sessionStoreUnavailable),
                tryAgain: true,
                language: language
            )
        case .overloaded:
            renderer.messagePage(title: .gateway(.busyTitle), message: .gateway(error.text ?? .sessionsFull), tryAgain: true, language: language)
        case .tooManyAttempts:
            // The wait in words is the Retry-After the page is sent with.
            renderer.messagePage(
                title: .gateway(.tooManyAttemptsTitle),
                message: .gateway(error.text ?? .tooManyAttempts),
                tryAgain: true,
                retryAfterSeconds: error.retryAfterSeconds,
                language: language
            )
        case .signInFailed:
            renderer.messagePage(
                title: .gateway(.signInFailedTitle),
                message: .gateway(error.text ?? .signInNotCompleted),
                startAgain: true,
                language: language
            )
        case .misdirected:
            renderer.messagePage(title: .gateway(.errorTitle), message: .gateway(error.text ?? .hostRefused), language: language)
        case .badRequest, .configuration, .unreadableInput, .internalError:
            renderer.messagePage(
                title: .gateway(.errorTitle),
                message: .gateway(error.text ?? .requestNotHandled),
                tryAgain: true,
                language: language
            )
        }
    }
}
