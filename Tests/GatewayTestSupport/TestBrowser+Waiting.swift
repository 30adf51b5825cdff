import Foundation

extension TestBrowser {
    /// Asks a waiting page's status address as its script would, every quarter second, until it says the step moved on;
    /// returns that answer. The gateway polls the upstream at most once per the step's interval and answers sooner
    /// requests from the last result, so a decision made on the other device shows within one interval.
    func statusOnceChanged(_ status: String, within limit: Duration = .seconds(30)) async throws -> Page {
        let deadline = ContinuousClock.now + limit
        while true {
            let answer = try await get(status)
            if answer.html != #"{"changed":false}"# || ContinuousClock.now >= deadline { return answer }
            try await Task.sleep(for: .milliseconds(250))
        }
    }

    /// Reloads a waiting page through its refresh address, every quarter second, until the page no longer waits;
    /// returns that page (see ``statusOnceChanged(_:within:)``).
    func pageOnceMovedOn(_ refresh: String, within limit: Duration = .seconds(30)) async throws -> Page {
        let deadline = ContinuousClock.now + limit
        while true {
            let page = try await get(refresh)
            if !page.html.contains("data-status-url") || ContinuousClock.now >= deadline { return page }
            try await Task.sleep(for: .milliseconds(250))
        }
    }
}
