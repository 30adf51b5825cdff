/// What became of a sign-in's outcome handed to the sinks (``CallbackDispatcher/hand(_:)``).
enum OutcomeHandOver: Sendable, Equatable {
    /// Every sink accepted it within the page's wait.
    case accepted
    /// A sink did not accept it yet: it is retried in the background.
    case retrying
    /// Not handed over: its sign-in had ended already with this outcome (`success`, `error` or `cancelled`), noted by
    /// another replica, and a sign-in has one outcome.
    case alreadyEnded(String)
}
