"""A git smart-HTTP server that only a signed-in person gets through, for the test of `haapi-gateway git-credential`:
it serves the bare repositories under ROOT with `git http-backend` (as CGI, GIT_PROJECT_ROOT and GIT_HTTP_EXPORT_ALL),
but only to requests whose HTTP Basic password the sign-in's userinfo endpoint accepts as a Bearer token (OpenID
Connect Core §5.3); any other request gets 401 with a Basic challenge, as a git server behind the sign-in would answer.

Usage: git_http_server.py ROOT USERINFO_URL

Listens on 127.0.0.1 on a free port and prints the port on standard output, then one JSON line per request (method,
path, status; never a credential).
"""
import base64
import http.server
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request


def say(**fields):
    print(json.dumps(fields, sort_keys=True), flush=True)


def accepted(token, userinfo):
    request = urllib.request.Request(userinfo, headers={"Authorization": "Bearer " + token})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status == 200
    except urllib.error.HTTPError:
        return False


class Handler(http.server.BaseHTTPRequestHandler):
    root = ""
    userinfo = ""

    def do_GET(self):
        self.serve()

    def do_POST(self):
        self.serve()

    def log_message(self, format, *args):
        pass

    def credentials(self):
        header = self.headers.get("Authorization", "")
        if not header.lower().startswith("basic "):
            return None
        try:
            username, _, password = base64.b64decode(header[6:].strip()).decode("utf-8").partition(":")
        except ValueError:
            return None
        return username, password

    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    self.rfile.readline()
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def serve(self):
        body = self.body()
        credentials = self.credentials()
        if credentials is None or not accepted(credentials[1], self.userinfo):
            answer = b"sign in first\n"
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="haapi-gateway test"')
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
            say(method=self.command, path=self.path.partition("?")[0], status=401, sent_credentials=credentials is not None)
            return
        path, _, query = self.path.partition("?")
        environment = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "GIT_PROJECT_ROOT": self.root,
            "GIT_HTTP_EXPORT_ALL": "1",
            "GATEWAY_INTERFACE": "CGI/1.1",
            "REQUEST_METHOD": self.command,
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
            "REMOTE_ADDR": self.client_address[0],
            "REMOTE_USER": credentials[0],
            "HTTP_CONTENT_ENCODING": self.headers.get("Content-Encoding", ""),
            "HTTP_GIT_PROTOCOL": self.headers.get("Git-Protocol", ""),
        }
        result = subprocess.run(["git", "http-backend"], input=body, env=environment, capture_output=True)
        head, separator, content = result.stdout.partition(b"\r\n\r\n")
        if not separator:
            head, _, content = result.stdout.partition(b"\n\n")
        status = 200
        headers = []
        for line in head.replace(b"\r\n", b"\n").split(b"\n"):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "status":
                status = int(value.strip().split(" ")[0])
            elif name:
                headers.append((name, value.strip()))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)
        say(method=self.command, path=path, status=status, sent_credentials=True)


def main():
    Handler.root, Handler.userinfo = sys.argv[1], sys.argv[2]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
