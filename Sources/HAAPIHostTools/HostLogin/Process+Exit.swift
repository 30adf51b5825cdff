import Foundation

extension Process {
    /// Starts the process and waits for it to exit, in its exit handler, not on a thread.
    /// - Returns: Its exit status; nil when it could not be started.
    func runToExit() async -> Int32? {
        await withCheckedContinuation { continuation in
            terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try run()
            } catch {
                terminationHandler = nil
                continuation.resume(returning: nil)
            }
        }
    }
}
