import HAAPIGateway
import Logging
import Tracing

extension PostgresDatabase {
    /// Runs one operation of a store (`work`, whose database calls name `operation`) as `whileDown` says, the one place
    /// that says what a down database means for the stores: refused at once, or asked anyway. A failure is logged as
    /// `failure` naming the operation and the error, and becomes `refusal` (a "try again" the page or the device gets).
    /// Within a request's span (tracing on), the operation is a client span of its own, `PostgreSQL <operation>`
    /// (`db.system.name`, `db.operation.name`; never a statement or a value); a background task's is not traced.
    func storeCall<Value>(
        _ operation: String,
        whileDown: WhileDatabaseDown,
        refusal: GatewayError,
        logger: Logger,
        failure: Logger.Message,
        _ work: () async throws(PostgresStorageError) -> Value
    ) async throws(GatewayError) -> Value {
        if whileDown == .refuseAtOnce, let reason = pageRefusal {
            logger.debug("\(failure)", metadata: ["operation": "\(operation)", "error": "not asked, the database cannot serve (\(reason))"])
            throw refusal
        }
        let span = ServiceContext.current.map { startSpan("PostgreSQL \(operation)", context: $0, ofKind: .client) }
        defer { span?.end() }
        span?.attributes["db.system.name"] = "postgresql"
        span?.attributes["db.operation.name"] = operation
        do {
            return try await work()
        } catch {
            span?.setStatus(SpanStatus(code: .error))
            logger.warning(failure, metadata: ["operation": "\(operation)", "error": "\(error.message)"])
            throw refusal
        }
    }
}
