"""Loads a kubeconfig with the official Kubernetes Python client (PyPI kubernetes), whose loader runs the user's exec
credential plugin as kubectl does (KUBERNETES_EXEC_INFO with the kubeconfig's apiVersion; the answer's apiVersion must
match it), for the test of `haapi-gateway kube-credential`.

Usage: kube_exec_credential.py KUBECONFIG

Prints one JSON line: the Authorization header value the client would send to the API server, from its auth settings
("Bearer <token>", null when the plugin failed), and the expiry it read from expirationTimestamp (ISO 8601, null when
none).
"""
import json
import sys

import yaml
from kubernetes import client
from kubernetes.config.kube_config import KubeConfigLoader


def main():
    path = sys.argv[1]
    with open(path) as file:
        loader = KubeConfigLoader(config_dict=yaml.safe_load(file), config_base_path=None)
    configuration = client.Configuration()
    loader.load_and_set(configuration)
    expiry = getattr(loader, "expiry", None)
    header = configuration.auth_settings().get("BearerToken", {})
    print(json.dumps({
        "authorization": header.get("value") if header.get("key") == "authorization" else None,
        "expiry": expiry.isoformat() if expiry else None,
    }), flush=True)


if __name__ == "__main__":
    main()
