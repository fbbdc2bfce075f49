#!/usr/bin/env python3
"""Measures how `livery install` ends hostile downloads (issue 19): an endless body without a
catalog, a 10 GB Content-Length, and a 1-byte drip. Prints, per case, the exit status, the time,
the bytes the server managed to send, and the client's peak resident memory.

    swift build --product livery
    python3 Scripts/store-download-caps.py "$(swift build --show-bin-path)/livery"
"""
import http.server, os, resource, socketserver, subprocess, sys, tempfile, threading, time

sent = {"bytes": 0}

class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        zeros = b"\0" * 65536
        try:
            if self.path.startswith("/endless"):
                self.send_response(200); self.send_header("Connection", "close"); self.end_headers()
                while True:
                    self.wfile.write(zeros); sent["bytes"] += len(zeros)
            elif self.path.startswith("/huge"):
                self.send_response(200); self.send_header("Content-Length", str(10 << 30)); self.end_headers()
                while True:
                    self.wfile.write(zeros); sent["bytes"] += len(zeros)
            elif self.path.startswith("/drip"):
                self.send_response(200); self.send_header("Content-Length", "100000"); self.end_headers()
                while True:
                    self.wfile.write(b"x"); self.wfile.flush(); sent["bytes"] += 1; time.sleep(0.5)
        except (BrokenPipeError, ConnectionResetError):
            pass

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

def main():
    livery = sys.argv[1]
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d" % server.server_address[1]
    print("case       exit  seconds  server sent (bytes)  client peak RSS (MiB)")
    for case, extra in [("endless", []), ("huge", []), ("drip", ["--timeout", "5", "--total-timeout", "10"])]:
        sent["bytes"] = 0
        folder = tempfile.mkdtemp(prefix="livery-caps-")
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.monotonic()
        process = subprocess.run([livery, "install", base + "/" + case + "/x.liverypkg", "--into", folder] + extra,
                                 capture_output=True, timeout=900)
        elapsed = time.monotonic() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print("%-9s  %4d  %7.1f  %19d  %21s   %s" % (case, process.returncode, elapsed, sent["bytes"],
              "%.0f" % (peak / 1024) if peak > before else "<= earlier", process.stderr.decode().strip()[:90]))

main()
