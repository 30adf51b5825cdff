import Hummingbird
import NIOCore

/// Collects request bodies with a size limit.
struct RequestBodyReader: Sendable {
    let maximumBytes: Int

    /// Why a body could not be read.
    enum Failure: Error, Sendable {
        case tooLarge
        case unreadable
    }

    /// The body as UTF-8 text.
    func text(of request: Request) async -> Result<String, Failure> {
        do {
            let buffer = try await request.body.collect(upTo: maximumBytes)
            guard let text = buffer.getString(at: buffer.readerIndex, length: buffer.readableBytes) else { return .failure(.unreadable) }
            return .success(text)
        } catch is NIOTooManyBytesError {
            return .failure(.tooLarge)
        } catch {
            return .failure(.unreadable)
        }
    }
}
