import Testing

extension StorageContract {
    /// Every check, as each backend's suite runs them (``MemoryStorageContractTests``, `PostgresStorageTests.Contract`).
    static let checks: [StorageContractCheck] = [
        StorageContractCheck("a prepared storage is ready", preparedStorageIsReady),
        StorageContractCheck(
            "sessions: stored, checked out for every use, what a request did kept at check-in, removed",
            sessionsAreStoredCheckedOutAndSaved
        ),
        StorageContractCheck("sessions: a rotation moves the sign-in to a fresh id; a removed one is not rotated", sessionsRotateToAFreshID),
        StorageContractCheck(
            "sessions: gone when idle past idleTimeoutSeconds, kept alive by use; idleDuration by the clock",
            sessionsExpireWhenIdle
        ),
        StorageContractCheck("sessions: gone past absoluteTimeoutSeconds however used", sessionsExpireAtTheirAbsoluteLifetime),
        StorageContractCheck(
            "sessions: at maximumSessions an untouched one is pushed out, a new one refused when all are in use, an expired one makes room",
            sessionsAreCapped
        ),
        StorageContractCheck("the new-session budget per address and its window", newSessionBudgetPerAddress),
        StorageContractCheck("a start link's signature is used once", startLinkIsUsedOnce),
        StorageContractCheck("wrong user codes: per-address and global bounds within the window", wrongUserCodesAreBounded),
        StorageContractCheck(
            "devices: created, entered, confirmed once, approved, tokens handed to one poll, then spent",
            deviceIsApprovedAndHandedTokensOnce
        ),
        StorageContractCheck("devices: a failed or lost hand-over gives the tokens to a later poll", deviceHandOverIsAtLeastOnce),
        StorageContractCheck("devices: slow_down and invalid_grant", devicePollsArePaced),
        StorageContractCheck("devices: expired_token past the code's lifetime, whatever happened", deviceCodesExpire),
        StorageContractCheck("devices: entries per code, refusal, denial, reopen, the bound on waiting codes", deviceEntriesAndDecisions),
        StorageContractCheck("devices: issued access tokens noted per client until they expire", deviceIssuedTokensAreNoted),
        StorageContractCheck(
            "the callback journal: a pending delivery survives a restart, a taken one is not delivered again",
            pendingDeliveriesSurviveARestart
        ),
        StorageContractCheck(
            "the device hand-over: an approval's outcome kept with it is delivered after a restart; handed, it is delivered once",
            deviceApprovalKeepsItsOutcome
        ),
        StorageContractCheck("upstream facts are kept beyond the process, or none are kept (nil)", upstreamFactsAreKept),
    ]
}
