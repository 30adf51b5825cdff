/// The result of a HAAPI call: a step to render or a problem to show. Failures are thrown as ``HAAPIError``.
public enum HAAPIResponse: Sendable, Hashable {
    /// A step.
    case representation(Representation)
    /// An RFC 7807 problem.
    case problem(Problem)

    /// The step, if this is one.
    public var representation: Representation? {
        if case .representation(let value) = self { return value }
        return nil
    }

    /// The problem, if this is one.
    public var problem: Problem? {
        if case .problem(let value) = self { return value }
        return nil
    }
}
