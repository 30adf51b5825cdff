"""Asks `docker-credential-haapi-gateway` through the Docker SDK for Python's credential store (PyPI docker:
docker.credentials.Store, which finds the helper on PATH by its name and speaks the docker-credential-helpers
protocol), for the test of `haapi-gateway docker-credential`.

Usage: docker_credential_store.py DOCKER_CONFIG_DIRECTORY SERVER OTHER_SERVER

Prints one JSON line per step: get SERVER, list, get OTHER_SERVER (not configured for the helper), store, erase SERVER,
and get SERVER again (store and erase keep and delete nothing). A step that fails prints the SDK's exception class
and message.
"""
import json
import sys

from docker.credentials import Store
from docker.credentials.errors import StoreError


def step(name, call):
    try:
        result = call()
        print(json.dumps({"step": name, "result": result}, sort_keys=True), flush=True)
    except StoreError as error:
        print(json.dumps({"step": name, "error": type(error).__name__, "message": str(error)}, sort_keys=True), flush=True)


def main():
    directory, server, other = sys.argv[1], sys.argv[2], sys.argv[3]
    store = Store("haapi-gateway", environment={"DOCKER_CONFIG": directory})
    step("get", lambda: store.get(server))
    step("list", store.list)
    step("get-other", lambda: store.get(other))

    def stored():
        store.store(server, "someone", "a-password")
        return "stored"

    def erased():
        store.erase(server)
        return "erased"

    step("store", stored)
    step("erase", erased)
    step("get-again", lambda: store.get(server))


if __name__ == "__main__":
    main()
