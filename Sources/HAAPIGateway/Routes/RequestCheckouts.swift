import Synchronization

/// The sessions one request checked out, so that ``SessionCheckInMiddleware`` checks each in when the request ends,
/// whether its handler answered or threw.
final class RequestCheckouts: Sendable {
    private let checkouts = Mutex<[SessionCheckout<SignInSession>]>([])

    /// Notes a checkout of this request.
    func add(_ checkout: SessionCheckout<SignInSession>) {
        checkouts.withLock { $0.append(checkout) }
    }

    /// Every checkout of this request, forgotten here.
    func takeAll() -> [SessionCheckout<SignInSession>] {
        checkouts.withLock { list in
            defer { list = [] }
            return list
        }
    }
}
