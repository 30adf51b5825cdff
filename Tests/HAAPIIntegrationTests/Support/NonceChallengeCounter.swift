import HAAPI

/// Counts the `use_dpop_nonce` challenges a transport passed through (HAAPI's 401 and the token endpoint's 400).
actor NonceChallengeCounter {
    private(set) var count = 0

    func record(_ response: HTTPResponseData) {
        let challenged =
            response.header("WWW-Authenticate")?.contains("use_dpop_nonce") == true
            || (response.status == 400 && String(decoding: response.body, as: UTF8.self).contains("use_dpop_nonce"))
        if challenged { count += 1 }
    }
}
