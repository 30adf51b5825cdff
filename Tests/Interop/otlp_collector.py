#!/usr/bin/env python3
"""A test's OpenTelemetry collector: an OTLP/HTTP receiver (protobuf, as the OpenTelemetry Collector's `otlp` receiver
takes it on :4318/v1/traces) decoded with the OpenTelemetry project's own protobuf classes (opentelemetry-proto), not the
gateway's code. Every span received is appended as one JSON line to the output file: service, trace and span ids, the
parent's, name, kind and attributes. Prints `listening <port>` once it listens on 127.0.0.1.

    otlp_collector.py OUTPUT
    otlp_collector.py --discard     (answers every export at once, keeping nothing: scripts/benchmark's collector)
"""
import gzip
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

OUTPUT = None if sys.argv[1] == "--discard" else sys.argv[1]


def value_of(any_value):
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [value_of(v) for v in any_value.array_value.values]
    return getattr(any_value, kind) if kind else None


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if OUTPUT is None:
            self.answer()
            return
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        if self.path != "/v1/traces" or "protobuf" not in (self.headers.get("Content-Type") or ""):
            self.send_response(404)
            self.end_headers()
            return
        request = trace_service_pb2.ExportTraceServiceRequest()
        request.ParseFromString(body)
        lines = []
        for resource_spans in request.resource_spans:
            resource = {a.key: value_of(a.value) for a in resource_spans.resource.attributes}
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    lines.append(json.dumps({
                        "service": resource.get("service.name"),
                        "resource": resource,
                        "trace_id": span.trace_id.hex(),
                        "span_id": span.span_id.hex(),
                        "parent_span_id": span.parent_span_id.hex(),
                        "name": span.name,
                        "kind": span.kind,
                        "attributes": {a.key: value_of(a.value) for a in span.attributes},
                    }))
        with open(OUTPUT, "a", encoding="utf-8") as output:
            output.write("".join(line + "\n" for line in lines))
        self.answer()

    def answer(self):
        answer = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *arguments):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
print(f"listening {server.server_address[1]}", flush=True)
server.serve_forever()
