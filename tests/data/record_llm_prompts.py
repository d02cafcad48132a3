"""Record the prompts gec-metrics' LLM-S / LLM-E send, for tests/data/llm_gec_metrics_prompts.jsonl.

Run with gec-metrics' own virtualenv (its code unmodified), from a folder holding the spaCy model
folder ``en_core_web_sm`` (ERRANT loads that name; spaCy takes a relative path of that name):

    cd /work/oracles/llm/run && ../venv/bin/python record_llm_prompts.py OUT.jsonl

The driver starts a loopback chat-completions server, points gec-metrics' OpenAI classes at it
(``base_url``) and calls their ``score_pairwise`` on the cases below, once per variant (LLM-S,
LLM-E; no criterion and each of their criteria; a fresh gec-metrics cache file per variant). The
server records every request body exactly as the ``openai`` client sent it and answers with
scores derived from the prompt's hash, so the recorded pairwise tables are gec-metrics' own
mapping of those scores onto systems. For LLM-E it also records the ERRANT edits gec-metrics'
CachedERRANT found for each distinct hypothesis (o_start, o_end, o_str, c_str).
"""
from __future__ import annotations

import hashlib
import json
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from gec_metrics.metrics import LLMKobayashi24OpenAIEdit, LLMKobayashi24OpenAISent

CASES = {
    # at most five distinct hypotheses: duplicates, an unchanged one, a source where all systems
    # are unchanged, and a sentence repeated (same prompt, requested once)
    "few": {
        "sources": ["This are a sentences .", "He go to school yesterday .", "Nothing to do here .",
                    "This are a sentences ."],
        "hypotheses": [
            ["This is a sentence .", "He goes to school yesterday .", "Nothing to do here .",
             "This is a sentence ."],
            ["This are a sentence .", "He went to school yesterday .", "Nothing to do here .",
             "This are a sentence ."],
            ["This is a sentence .", "He go to the school yesterday .", "Nothing to do here .",
             "This is a sentence ."],
            ["This are a sentences .", "He goes to a school yesterday .", "Nothing to do here .",
             "This are a sentences ."],
        ],
    },
    # more than five distinct hypotheses: gec-metrics keeps the five most frequent (ties in
    # first-occurrence order) and sorts them
    "many": {
        "sources": ["the people in the city is happy .", "She like apple ."],
        "hypotheses": [
            ["The people in the city is happy .", "She likes apples ."],
            ["the people in the city are happy .", "She likes apple ."],
            ["The people in the city are happy .", "She liked apples ."],
            ["the people in the city is happy !", "She likes an apple ."],
            ["The people in the city are happy .", "She like apples ."],
            ["The peoples in the city is happy .", "She likes the apple ."],
            ["the people in the city are happy .", "She would like apples ."],
            ["The people in this city are happy .", "She likes apples ."],
        ],
    },
    # non-ASCII text and the template's own markers inside the texts (gec-metrics fills the
    # template with two successive str.replace calls)
    "markers": {
        "sources": ["Write [CORRECTION] in the café .", "The [SOURCE] say → here ."],
        "hypotheses": [
            ["Write [CORRECTION] in the café .", "The [SOURCE] says → here ."],
            ["Write the [CORRECTION] in the café .", "The [SOURCE] said here ."],
            ["Write [CORRECTION] at the cafe .", "The [SOURCE] say → here ."],
        ],
    },
}

VARIANTS = [("S", None), ("S", "grammaticality"), ("S", "fluency"), ("S", "meaning"),
            ("E", None), ("E", "difficulty"), ("E", "impact")]

REQUESTS: list[dict] = []


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # quiet
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        REQUESTS.append({"path": self.path, "body": body})
        n = len(body["response_format"]["json_schema"]["schema"]["properties"])
        digest = hashlib.sha256(body["messages"][-1]["content"].encode()).digest()
        content = json.dumps({f"target_score{i + 1}": 1 + digest[i] % 5 for i in range(n)})
        answer = {"id": "chatcmpl-record", "object": "chat.completion", "created": 0,
                  "model": body["model"],
                  "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                               "message": {"role": "assistant", "content": content}}],
                  "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main(out: str) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    with open(out, "w", encoding="utf-8") as handle, tempfile.TemporaryDirectory() as tmp:
        for name, case in CASES.items():
            for kind, criterion in VARIANTS:
                cls = LLMKobayashi24OpenAISent if kind == "S" else LLMKobayashi24OpenAIEdit
                config = cls.Config(api_key="not-used", base_url=base_url, criteria=criterion,
                                    cache=str(Path(tmp) / f"{name}-{kind}-{criterion}.cache"))
                metric = cls(config)
                del REQUESTS[:]
                pairwise = metric.score_pairwise(case["sources"], case["hypotheses"])
                row = {"case": name, "kind": kind, "criterion": criterion,
                       "sources": case["sources"], "hypotheses": case["hypotheses"],
                       "requests": list(REQUESTS), "pairwise": pairwise}
                if kind == "E":
                    edits = {}
                    for i, source in enumerate(case["sources"]):
                        for system in case["hypotheses"]:
                            found = metric.errant.extract_edits(source, system[i])
                            edits[f"{i}\t{system[i]}"] = [
                                [e.o_start, e.o_end, e.o_str, e.c_str] for e in found]
                    row["edits"] = edits
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    server.shutdown()


if __name__ == "__main__":
    main(sys.argv[1])
