import Hummingbird

/// Checks in every session a request checked out (``RequestCheckouts``) when its handler has answered or thrown, before
/// the response leaves: a shared store then holds what the request did by the time the browser sends its next request
/// (to any replica), and a sign-in a failed request held is released. A check-in that fails is logged; the routes that
/// must not answer before their change is kept check in themselves first, and show the failure.
struct SessionCheckInMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    let store: any SessionStore<SignInSession>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            await checkIn(context)
            throw error
        }
        await checkIn(context)
        return response
    }

    private func checkIn(_ context: Context) async {
        for checkout in context.checkouts.takeAll() {
            do throws(GatewayError) {
                try await store.checkIn(checkout)
            } catch {
                context.logger.warning("session not saved at the end of the request", metadata: ["error": "\(error.message)"])
            }
        }
    }
}
