"""A device signing in through the gateway with requests-oauth2client, a maintained RFC 8628 client from PyPI that
this project did not write: it configures itself from the RFC 8414 metadata, asks for a device code, prints what a
person needs (one JSON line), polls as the library does (its own interval and slow_down handling), then refreshes and
revokes through the gateway. Each step's result is one JSON line on standard output; the Swift test reads them.

Usage: rfc8628_client.py BASE_URL CLIENT_ID [CLIENT_SECRET [POLL_BASE_URL REFRESH_BASE_URL]]

With POLL_BASE_URL and REFRESH_BASE_URL (replicas of one gateway), the device code is asked of BASE_URL, the polling goes
to POLL_BASE_URL, and the refresh and revocation to REFRESH_BASE_URL, each configured from that replica's metadata.
"""
import json
import sys

import requests

from requests_oauth2client import DeviceAuthorizationPollingJob, OAuth2Client
from requests_oauth2client.exceptions import AccessDenied, ExpiredToken, InvalidGrant


def say(**fields):
    print(json.dumps(fields, sort_keys=True), flush=True)


def configured(base, client_id, secret):
    metadata = requests.get(base + "/.well-known/oauth-authorization-server", timeout=10).json()
    # testing=True: the endpoints are http on loopback, which the library refuses otherwise. Its discovery (1.8) does not
    # read device_authorization_endpoint, so it is passed on from the metadata.
    return OAuth2Client.from_discovery_document(
        metadata, issuer=base, client_id=client_id, client_secret=secret, testing=True,
        device_authorization_endpoint=metadata["device_authorization_endpoint"])


def main():
    base, client_id = sys.argv[1], sys.argv[2]
    secret = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
    client = configured(base, client_id, secret)
    polling = configured(sys.argv[4], client_id, secret) if len(sys.argv) > 4 else client
    refreshing = configured(sys.argv[5], client_id, secret) if len(sys.argv) > 5 else client
    authorization = client.authorize_device(scope="openid profile")
    say(step="authorized", user_code=authorization.user_code, verification_uri=authorization.verification_uri,
        verification_uri_complete=authorization.verification_uri_complete, interval=authorization.interval)
    job = DeviceAuthorizationPollingJob(polling, authorization)
    polls = 0
    try:
        token = None
        while token is None:
            polls += 1
            token = job()
    except (AccessDenied, ExpiredToken) as error:
        say(step="denied", error=error.error, polls=polls)
        return
    say(step="tokens", token_type=token.token_type, has_access_token=bool(token.access_token),
        has_refresh_token=bool(token.refresh_token), has_id_token=bool(token.id_token), scope=token.scope, polls=polls)
    refreshed = refreshing.refresh_token(token.refresh_token)
    say(step="refreshed", changed=refreshed.access_token != token.access_token)
    refreshing.revoke_refresh_token(refreshed.refresh_token or token.refresh_token)
    try:
        refreshing.refresh_token(refreshed.refresh_token or token.refresh_token)
        say(step="revoked", refused=False)
    except InvalidGrant:
        say(step="revoked", refused=True)


if __name__ == "__main__":
    main()
