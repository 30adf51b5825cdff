/// Why a fact about the upstream could not be read or kept: a value, logged as a warning and never a failed sign-in.
/// Its message names the place (a path, or the database without its password) and never holds a secret.
package struct UpstreamFactError: Error, Sendable, CustomStringConvertible {
    let message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
