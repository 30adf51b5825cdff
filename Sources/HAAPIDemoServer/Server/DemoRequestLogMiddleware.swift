import Hummingbird
import Logging

/// Logs method, path (never the query, which carries codes and states, nor approval ids) and status at `debug`,
/// and turns any unexpected error into a JSON 400 instead of a 500.
struct DemoRequestLogMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            logger.debug("\(request.method) \(Self.loggablePath(request.uri.path)) -> \(response.status.code)")
            return response
        } catch let error as any HTTPResponseError {
            logger.debug("\(request.method) \(Self.loggablePath(request.uri.path)) -> \(error.status.code)")
            throw error
        } catch {
            logger.error(
                "\(request.method) \(Self.loggablePath(request.uri.path)) failed unexpectedly",
                metadata: ["error.type": "\(type(of: error))"]
            )
            return DemoResponse.json(["error": "invalid_request", "error_description": "The request could not be processed"], status: .badRequest)
        }
    }

    /// The path with capability ids (approval links) cut off.
    static func loggablePath(_ path: String) -> String {
        path.hasPrefix(DemoPaths.approvePrefix) ? DemoPaths.approvePrefix + "…" : path
    }
}
