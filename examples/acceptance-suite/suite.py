#!/usr/bin/env python3
"""An acceptance suite in Python, as another project would write it.

It runs the reference server's binary with the control plane on and tests
a small client of the admin API (DocsClient below, the code under test)
against it, over HTTP on 127.0.0.1, with nothing but the standard library
(urllib, unittest). Each test gets an organization of its own through the
control plane, injects faults into that organization's requests only, and
checks what the server received with the control plane's verification:

- a start answered 503 with Retry-After is retried (503, 503, 202);
- faults that strike by probability are replayed exactly from their seed;
- a status answer cut short, not JSON, or empty is polled again;
- an answer dribbled out too slowly is given up on and asked again;
- a stub's answer (a failed export) reaches the client's user;
- an expired bundle link is replaced;
- a faulted request is journaled whole: body, status, size, duration.

PROVIDER_BIN names the terraform-provider-docsadmin binary (make test sets
it). The server is stopped when the suite ends, however it ends.
"""

import http.client
import io
import json
import os
import re
import secrets
import shutil
import subprocess
import tarfile
import tempfile
import time
import unittest
import urllib.error
import urllib.request

SERVER = None  # the Server of this run, started by setUpModule


class Server:
    """The reference server's binary on a free 127.0.0.1 port."""

    def __init__(self, binary):
        self.dir = tempfile.mkdtemp(prefix="docsadmin-suite-")
        self.token = "ctl_" + secrets.token_hex(24)
        self.stdout = os.path.join(self.dir, "stdout")
        env = dict(os.environ, DOCSADMIN_CONTROL_TOKEN=self.token)
        with open(self.stdout, "wb") as out, open(os.path.join(self.dir, "stderr"), "wb") as err:
            self.proc = subprocess.Popen(
                [binary, "apiserver", "--addr", "127.0.0.1:0", "--data-dir", os.path.join(self.dir, "data")],
                stdout=out, stderr=err, env=env)
        self.url = self._announced(r"^listening on (\S+)$")

    def _announced(self, pattern, timeout=20):
        """Waits for the server to print a line matching pattern."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with open(self.stdout, encoding="utf-8") as f:
                m = re.search(pattern, f.read(), re.M)
            if m:
                return m.group(1)
            if self.proc.poll() is not None:
                with open(os.path.join(self.dir, "stderr"), encoding="utf-8") as f:
                    raise RuntimeError("the server exited: " + f.read())
            time.sleep(0.05)
        raise RuntimeError("the server did not print " + pattern)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def call(method, url, token, body=None, timeout=30):
    """One JSON request; returns (status, decoded body or None)."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("Authorization", "Bearer " + token)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, raw = resp.status, resp.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    return status, (json.loads(raw) if raw else None)


class Control:
    """The control plane, limited to one organization where that applies."""

    def __init__(self, server, org):
        self.server, self.org = server, org

    def __call__(self, method, path, body=None, want=(200, 201, 204)):
        status, out = call(method, self.server.url + path, self.server.token, body)
        if status not in want:
            raise AssertionError(f"control {method} {path}: {status} {out}")
        return out

    def fail(self, **fault):
        """Injects a fault into this organization's requests; returns it as
        the server holds it (with the seed it picked, if it picked one)."""
        return self("POST", "/_control/v1/faults", dict(fault, organization=self.org))

    def journal(self, **query):
        q = "&".join(f"{k}={v}" for k, v in dict(query, organization=self.org).items())
        return self("GET", "/_control/v1/requests?" + q)["requests"]

    def verify(self, check):
        """Returns None when check holds, the server's report otherwise."""
        out = self("POST", "/_control/v1/requests/verify", check, want=(200, 409))
        return None if out["ok"] else out["report"]


# --- The client under test ---------------------------------------------------

class BrokenAnswer(Exception):
    """An answer that could not be read: cut short, not JSON, empty, or too
    slow to arrive."""


class DocsClient:
    """A small client of the admin API, as a team would write its own."""

    RETRIES = 3
    POLLS = 600
    # An answer must arrive whole within this long; a status answer is a
    # few hundred bytes.
    ANSWER_BUDGET = 1.0

    def __init__(self, base, key):
        self.base, self.key = base, key

    def _request(self, method, url, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url, data=data, method=method)
        req.add_header("Authorization", "Bearer " + self.key)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            resp = urllib.request.urlopen(req, timeout=10)
        except urllib.error.HTTPError as e:
            resp = e
        # read1 returns what has arrived, so a slow answer is noticed as it
        # dribbles in, not once it is whole.
        read = getattr(resp, "read1", resp.read)
        began, chunks = time.monotonic(), []
        try:
            while True:
                if time.monotonic() - began > self.ANSWER_BUDGET:
                    raise BrokenAnswer("the answer took too long")
                chunk = read(4096)
                if not chunk:
                    break
                chunks.append(chunk)
            if getattr(resp, "length", None):
                raise BrokenAnswer("the answer was cut short")
        except (ConnectionError, http.client.HTTPException) as e:
            raise BrokenAnswer(str(e)) from e
        finally:
            resp.close()
        return resp.code, resp.headers, b"".join(chunks)

    def start_export(self, domain):
        """Starts an export, retrying 5xx answers as Retry-After says."""
        for attempt in range(self.RETRIES + 1):
            status, headers, raw = self._request("POST", self.base + "/v1/static-export/jobs", {"domain": domain})
            if status == 202:
                return json.loads(raw)
            if status < 500 or attempt == self.RETRIES:
                raise RuntimeError(f"start export: {status} {raw[:200]!r}")
            time.sleep(float(headers.get("Retry-After") or 1))
        raise AssertionError("unreachable")

    def wait_export(self, job_id):
        """Polls a job until it ends; raises with the server's error when it
        failed. Up to three broken answers are polled again."""
        broken = 0
        for _ in range(self.POLLS):
            try:
                status, _, raw = self._request("GET", f"{self.base}/v1/static-export/jobs/{job_id}")
                job = json.loads(raw)
            except (BrokenAnswer, ValueError):
                broken += 1
                if broken > 3:
                    raise
                continue
            if status != 200:
                raise RuntimeError(f"export {job_id}: {status} {job}")
            if job["status"] == "completed":
                return job
            if job["status"] == "failed":
                raise RuntimeError(f"export {job_id} failed: {job['error']}")
            time.sleep(0.05)
        raise RuntimeError(f"export {job_id} did not finish")

    def fetch_bundle(self, job_id, before_download=None):
        """Downloads a job's archive; an expired link (403) is replaced by a
        fresh one, once."""
        for attempt in range(2):
            status, _, raw = self._request("POST", f"{self.base}/v1/static-export/jobs/{job_id}/bundle")
            if status != 200:
                raise RuntimeError(f"bundle link: {status}")
            if attempt == 0 and before_download:
                before_download()
            try:
                with urllib.request.urlopen(json.loads(raw)["bundleUrl"], timeout=30) as resp:
                    return resp.read()
            except urllib.error.HTTPError as e:
                if e.code != 403:
                    raise
        raise RuntimeError("the link expired twice")


# --- The suite ---------------------------------------------------------------

def setUpModule():
    global SERVER
    binary = os.environ.get("PROVIDER_BIN")
    if not binary:
        raise unittest.SkipTest("set PROVIDER_BIN to the terraform-provider-docsadmin binary")
    SERVER = Server(binary)


def tearDownModule():
    if SERVER:
        SERVER.stop()


SITE = {"docs.json": '{"name": "Suite", "navigation": {"pages": ["index"]}}', "index.mdx": "# Suite\n\nHello.\n"}

START = "POST /v1/static-export/jobs"
POLL = "GET /v1/static-export/jobs/{jobId}"
LINK = "POST /v1/static-export/jobs/{jobId}/bundle"
DOWNLOAD = "GET /bundles/{jobId}/{file}"


class ClientTest(unittest.TestCase):
    def setUp(self):
        ctl = Control(SERVER, None)
        org = ctl("POST", "/_control/v1/organizations", {"source": {"files": SITE}})
        self.addCleanup(ctl, "DELETE", "/_control/v1/organizations/" + org["id"])
        self.org = org
        self.control = Control(SERVER, org["id"])
        self.client = DocsClient(SERVER.url, org["apiKey"])
        self.mine = {"organization": org["id"]}

    def assertVerified(self, check):
        report = self.control.verify(check)
        if report:
            self.fail(report)

    def tearDown(self):
        # Whatever a test did, its client called nothing the API lacks and
        # nothing besides starts, polls, links and downloads.
        self.assertVerified({"within": self.mine, "match": {"unmatched": True}, "count": 0})
        self.assertVerified({"within": self.mine, "only": [{"route": r} for r in (START, POLL, LINK, DOWNLOAD)]})

    def test_retries_a_start_answered_503(self):
        self.control.fail(method="POST", path="/v1/static-export/jobs", status=503, retryAfter="1s", times=2)
        job = self.client.start_export(self.org["domain"])
        self.client.wait_export(job["jobId"])
        start = dict(self.mine, route=START, body={"domain": self.org["domain"]})
        self.assertVerified({"match": start, "count": 3})
        self.assertVerified({"within": start, "sequence": [{"status": 503}, {"status": 503}, {"status": 202}]})

    def test_probabilistic_faults_replay_from_their_seed(self):
        """A fault that strikes a share of the polls, without a seed: the
        server picks one and says which; the same seed strikes the same
        polls of a second run."""
        job = self.client.start_export(self.org["domain"])
        self.client.wait_export(job["jobId"])
        path = "/v1/static-export/jobs/" + job["jobId"]

        def run(**seed):
            fault = self.control.fail(method="GET", path=path, status=502, probability=0.5, **seed)
            statuses = []
            for _ in range(24):
                status, _, _ = self.client._request("GET", SERVER.url + path)
                statuses.append(status)
            self.control("DELETE", "/_control/v1/faults/" + fault["id"])
            return fault, statuses

        fault, first = run()
        self.assertIsInstance(fault.get("seed"), int, f"no seed in the creation's answer: {fault}")
        self.assertIn(502, first)
        self.assertIn(200, first)
        _, again = run(seed=fault["seed"])
        self.assertEqual(first, again, "the same seed struck other requests")
        polls = [r["status"] for r in self.control.journal(method="GET", path=path)][-48:]
        self.assertEqual(polls, first + again, "the journal does not show what the client saw")

    def test_polls_again_after_broken_status_answers(self):
        """Status answers cut short, not JSON, and empty: the faults reshape
        the real answers, so the polls really reached the server."""
        self.control("POST", "/_control/v1/exports/hold", {"organization": self.org["id"]})
        job = self.client.start_export(self.org["domain"])
        for shape in ("truncated", "malformed", "empty"):
            self.control.fail(method="GET", path="/v1/static-export/jobs/*", response=shape, times=1)
        self.control("POST", "/_control/v1/exports/hold", {"organization": self.org["id"], "hold": False})
        self.client.wait_export(job["jobId"])
        left = [f for f in self.control("GET", "/_control/v1/faults")["faults"] if f["organization"] == self.org["id"]]
        self.assertEqual(left, [], "faults that never struck")
        polls = self.control.journal(method="GET", path="/v1/static-export/jobs/" + job["jobId"])
        self.assertGreaterEqual(len(polls), 4)
        first = polls[0]
        self.assertEqual((first["status"], first["aborted"]), (200, "server"), f"the truncated answer: {first}")
        self.assertEqual(polls[2]["responseBytes"], 0, f"the empty answer: {polls[2]}")

    def test_gives_up_on_a_dribbling_answer(self):
        """A status answer sent at 20 bytes a second outlasts the client's
        one-second budget; it is asked again, and the journal shows the
        first answer abandoned by the client part way."""
        job = self.client.start_export(self.org["domain"])
        self.control.fail(method="GET", path="/v1/static-export/jobs/*", bytesPerSecond=20, times=1)
        self.client.wait_export(job["jobId"])
        polls = self.control.journal(method="GET", path="/v1/static-export/jobs/*")
        # The journal keeps a request when its answer ends, and the server
        # notices a client gone only at its next write: the abandoned
        # answer may come after polls that followed it.
        cut = [r for r in polls if r.get("aborted")]
        self.assertEqual(len(cut), 1, f"polls: {polls}")
        slow = cut[0]
        self.assertEqual((slow["status"], slow["aborted"]), (200, "client"), f"the dribbled answer: {slow}")
        self.assertLess(slow["responseBytes"], 200, f"the dribbled answer: {slow}")
        self.assertGreaterEqual(slow["durationMs"], 900, f"the dribbled answer: {slow}")

    def test_reports_a_failed_export_from_a_stub(self):
        """A stub answers the next poll in place of the real operation: the
        export as failed, with an error the client must pass on."""
        job = self.client.start_export(self.org["domain"])
        stub = {"jobId": job["jobId"], "status": "failed", "progress": 0, "pageCount": 0,
                "createdAt": job["createdAt"], "updatedAt": job["createdAt"], "error": "the docs source has no docs.json"}
        self.control.fail(method="GET", path="/v1/static-export/jobs/" + job["jobId"], body=stub, times=1)
        with self.assertRaisesRegex(RuntimeError, "the docs source has no docs.json"):
            self.client.wait_export(job["jobId"])
        # The stub spent itself: the real job is there, and completes.
        self.assertEqual(self.client.wait_export(job["jobId"])["status"], "completed")

    def test_replaces_an_expired_link(self):
        """The server clock moves past the link's hour between the bundle
        call and the download: the client asks again and gets the archive."""
        job = self.client.start_export(self.org["domain"])
        self.client.wait_export(job["jobId"])
        archive = self.client.fetch_bundle(job["jobId"], before_download=lambda: self.control(
            "POST", "/_control/v1/clock/advance", {"by": "61m"}))
        with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
            self.assertIn("manifest.json", tar.getnames())
        self.assertVerified({"within": dict(self.mine, route=DOWNLOAD), "sequence": [{"status": 403}, {"status": 200}]})
        self.assertVerified({"match": dict(self.mine, route=LINK), "count": 2})

    def test_journal_keeps_a_faulted_request_whole(self):
        """A start struck by a fault is journaled with its body, the status
        and size of the fault's answer and how long it took, and no key."""
        self.control.fail(method="POST", path="/v1/static-export/jobs", status=500, delay="200ms", times=1)
        self.client.start_export(self.org["domain"])
        struck = self.control.journal(method="POST")[0]
        sent = json.dumps({"domain": self.org["domain"]})
        self.assertEqual((struck["status"], struck["bodyBytes"]), (500, len(sent)), f"the struck start: {struck}")
        self.assertEqual(json.loads(struck["body"]), {"domain": self.org["domain"]})
        self.assertGreater(struck["responseBytes"], 0)
        self.assertGreaterEqual(struck["durationMs"], 200)
        self.assertNotIn(self.org["apiKey"].split("_", 1)[1], json.dumps(struck))


if __name__ == "__main__":
    unittest.main(verbosity=2)
