import Hummingbird
import Logging

/// Writes the token endpoint's answer with a device's tokens, and ends their hand-over (``DeviceTokenHandOver``) by what
/// became of it: once the answer is written the authorization is forgotten; an answer that could not be written gives
/// the tokens back for the device's next poll.
struct DeviceTokenHandOverWriter: Sendable {
    let store: any DeviceAuthorizationStore
    let logger: Logger
    /// How long the end of a hand-over is asked of a store that does not answer before the tokens are left to the device's
    /// next poll again (default a minute). Hand-overs are at least once: a poll that reaches the store before the end
    /// is noted, once the hand-over's lease is over (``DeviceTokenHandOver/leaseSeconds``), gets the same tokens again,
    /// as after a replica killed before it noted the end.
    var patience: Duration = .seconds(60)
    /// The wait between two attempts to note the end.
    var retryDelay: Duration = .milliseconds(500)

    /// `response`, whose body ends `handOver` once it has been written to the device's connection.
    func response(_ response: Response, handingOver handOver: DeviceTokenHandOver) -> Response {
        var response = response
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer)
            } catch {
                logger.notice("the answer with a device's tokens could not be written; they wait for its next poll", metadata: ["error": "\(error)"])
                await Task { [store] in try? await store.handOverFailed(handOver) }.value  // not cancelled with the request
                throw error
            }
            await end(handOver)
        }
        return response
    }

    /// Ends `handOver`, asking a store that cannot be reached again for a while; past that the tokens are offered to the
    /// device's next poll again: the same tokens, to the holder of the same device code.
    ///
    /// It runs in a task of its own, awaited: the request's task is cancelled when the device closes its connection,
    /// which it may do as soon as it has read the answer, and a cancelled database call would leave the hand-over open.
    func end(_ handOver: DeviceTokenHandOver) async {
        await Task { await noteEnd(handOver) }.value
    }

    private func noteEnd(_ handOver: DeviceTokenHandOver) async {
        let deadline = ContinuousClock.now + patience
        while true {
            do {
                try await store.handedOver(handOver)
                return
            } catch {
                guard ContinuousClock.now + retryDelay < deadline, (try? await Task.sleep(for: retryDelay)) != nil else { break }
            }
        }
        logger.warning(
            "the end of a hand-over of a device's tokens could not be noted in the store; the device's next poll gets the same tokens again"
        )
    }
}
