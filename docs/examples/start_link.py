"""Makes a signed start link for haapi-gateway (startLinks in its configuration): the application's reference for this
sign-in, the authorize parameters startLinks.allowedParameters allows, and an expiry, signed with HMAC-SHA256 under
startLinks.secretFile's secret. The canonical form is every parameter but `sig`, sorted by name, each `name=value`
percent-encoded (RFC 3986), joined with `&`.

Usage: start_link.py GATEWAY_URL SECRET_FILE REFERENCE [name=value ...]
"""
import hashlib
import hmac
import sys
import time
from urllib.parse import quote


def start_link(gateway, secret, reference, lifetime=300, **parameters):
    values = {"ref": reference, "exp": str(int(time.time()) + lifetime), **parameters}
    canonical = "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in sorted(values.items()))
    signature = hmac.new(secret, canonical.encode(), hashlib.sha256).hexdigest()
    return f"{gateway}/start?{canonical}&sig={signature}"


if __name__ == "__main__":
    gateway, secret_file, reference = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(secret_file, "rb") as file:
        secret = file.read().rstrip(b"\r\n")
    print(start_link(gateway, secret, reference, **dict(pair.split("=", 1) for pair in sys.argv[4:])))
