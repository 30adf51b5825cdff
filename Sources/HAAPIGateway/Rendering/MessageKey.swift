/// Every text of the gateway's own, by key. The texts live in the message catalogues `templates/messages/<lang>.json`
/// (English is required and complete; other languages fall back to English key by key). Templates use them as
/// `{{t.<key>}}`; texts from the upstream are always shown as sent.
public enum MessageKey: String, CaseIterable, Sendable, Codable {
    case signInTitle, continueButton, checkNow, image, continueInBrowser, scanCode, openLinkHere
    case cancelSignIn, cancelTitle, cancelQuestion, cancelConfirm, cancelContinue
    case startAgain, tryAgain
    case signedInTitle, signedInText, signedInClose, deliveryDelayed
    case requiredField, fillRequired, stalePage, incorrectCredentials, invalidValues, invalidValue
    case pollingTimeout, waitingForApproval
    case signInFailedTitle, signInNotCompleted, tokensRefused, tokenBoundCodeUsedUp, idTokenRefused, signInNotStarted, signInExpired, fieldNotOnPage
    case cancelledTitle, cancelledText
    case sessionExpiredTitle, sessionExpired
    case upstreamUnavailableTitle, upstreamUnavailable, signInUnavailable
    case refusedTitle, crossSiteRefused, formNotVerified
    case errorTitle, unknownButton, unknownLink, unknownForm, requestTooLarge, requestNotHandled, hostRefused
    case problemTitle, problemText
    case unsupportedOperationTitle, unsupportedOperation, otherWays, unsupportedAction
    case externalBrowserHelp, resumeCodeLabel, externalBrowserReturned, externalBrowserHandedBack, bankIDOpenApp
    case passkeyTitle, passkeyCreate, passkeyUse, passkeyNoScript, passkeyWorking, passkeyCancelled, passkeyUnsupported, passkeyFailed
    case passkeyUnavailable, passkeyInvalid
    case restarting
    case busyTitle, sessionsFull, tooManyAttemptsTitle, tooManyAttempts, tooManyNewSignIns
    case retryIn, waitHour, waitHours, waitMinute, waitMinutes, waitSecond, waitSeconds, waitAnd
    case pairTitle, pairCheck, pairConfirm, pairMismatch, pairLinkUsed, pairOpenLink
    case deviceTitle, deviceEnterCode, deviceCodeLabel, deviceCodeUnknown, deviceCodeUsed, deviceConfirmTitle, deviceCheck, deviceConfirm, deviceDeny
    case deviceRefusedTitle, deviceRefused, deviceSignedIn, deviceCodeExpired, deviceHandOverFailed, tooManyWrongCodes
    case startLinkInvalid, startLinkExpired, startLinkReady, startLinkContinue
    case sessionStoreUnavailable, signInStoreUnavailable, signInBusy, signInRestarted
}
