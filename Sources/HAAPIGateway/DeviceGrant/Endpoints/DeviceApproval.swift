/// What approving a device's sign-in did (``DeviceAuthorizationStore/approve(reference:tokens:keepingOutcome:)``).
package struct DeviceApproval: Sendable, Equatable {
    /// Whether the tokens wait for the device's next poll (false: its code expired, or was decided otherwise).
    package var approved: Bool
    /// Whether the deliveries of the sign-in's outcome were kept in the same change as the approval: the callback
    /// journal holds them, claimed by this replica, and the dispatcher attempts them without keeping them again.
    package var outcomeKept: Bool

    /// An approval.
    /// - Parameters:
    ///   - approved: Whether the tokens wait for the device.
    ///   - outcomeKept: Whether the outcome's deliveries were kept with it.
    package init(approved: Bool, outcomeKept: Bool) {
        self.approved = approved
        self.outcomeKept = outcomeKept
    }
}
