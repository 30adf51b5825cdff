import HTTPTypes
import Hummingbird
import Logging

/// Renders every error as an HTML page: ``GatewayError`` with its message, Hummingbird's HTTP errors by status,
/// anything else as a generic failure (never its description, which may carry upstream detail).
struct ErrorPageMiddleware<Context: RequestContext>: RouterMiddleware {
    let renderer: PageRenderer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as GatewayError {
            context.logger.info("gateway error page", metadata: ["code": "\(error.code.rawValue)"])
            return PageRenderer.response(page(for: error), status: error.status)
        } catch let error as any HTTPResponseError {
            let message = error.status == .contentTooLarge ? "The request was too large." : "The request could not be handled."
            return PageRenderer.response(renderer.messagePage(title: "Request refused", message: message), status: error.status)
        } catch {
            context.logger.error("unexpected error", metadata: ["type": "\(type(of: error))"])
            return PageRenderer.response(
                renderer.messagePage(title: "Something went wrong", message: "The request could not be handled.", startAgain: true),
                status: .internalServerError)
        }
    }

    private func page(for error: GatewayError) -> String {
        switch error.code {
        case .sessionExpired:
            renderer.messagePage(title: "Session expired", message: error.message, startAgain: true)
        case .upstreamUnavailable:
            renderer.messagePage(title: "Sign-in service unavailable", message: error.message, tryAgain: true)
        case .forbidden:
            renderer.messagePage(title: "Request refused", message: error.message, startAgain: true)
        case .signInFailed:
            renderer.messagePage(title: "Sign-in failed", message: error.message, startAgain: true)
        case .badRequest, .configuration, .internalError:
            renderer.messagePage(title: "Something went wrong", message: error.message, tryAgain: true)
        }
    }
}
