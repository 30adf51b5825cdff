/// The state of an approval on another device.
enum ApprovalStatus: String, Sendable {
    case pending, approved, denied
}
