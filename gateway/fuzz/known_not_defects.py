"""schemathesis hooks of `npm run fuzz:schemathesis` (gateway/fuzz/schemathesis.ts).

Drops exactly the failures that are documented behaviour, not defects (CLARIFICATIONS 2026-11-26
"Not defects", docs/reliability.md "Independent fuzzing"), each matched on the check that reported
it and the error code, field and message of our answer, so any other answer still fails the run.
Every dropped failure is written to `known-not-defects.txt` in the working directory, one line
each, so the run's report says how many of each kind it saw.
"""

import json
import re
import uuid

import schemathesis

# (kind, check code, error code, detail path (or a regular expression starting with ^) or None,
# a piece of the message)
KNOWN = [
    # A cursor is opaque and signed, bound to its list, organization and filters: only one the
    # server sent in `Link` is valid, so one a fuzzer invents is 422 (PRODUCT.md §5).
    ("invented cursor", "ST202", "validation_failed", "cursor", "cursor"),
    # schemathesis reuses generated header values: the same Idempotency-Key with another body is
    # 422 idempotency_key_reused by design (PRODUCT.md §6).
    ("Idempotency-Key reused", "ST202", "idempotency_key_reused", None, "Idempotency-Key"),
    # The server resolves a webhook's host to refuse private addresses (PRODUCT.md §8); on this
    # closed network a generated host such as `0.com` does not resolve.
    ("webhook host does not resolve", "ST202", "validation_failed", "url", "does not resolve"),
    # A cross-field rule JSON Schema cannot state: a replay window must not be empty.
    ("replay window empty", "ST202", "validation_failed", "until", "until must be after since"),
    # A rule that depends on stored data: a name is needed only to create a candidate whose
    # e-mail is not known yet (PRODUCT.md §7).
    ("candidate.name for a new candidate", "ST202", "validation_failed", "candidate.name", "required when the candidate does not exist yet"),
    # Issue 18 item 2: a metadata key `__proto__` is refused, never silently dropped; the
    # document's `additionalProperties` cannot name one key it refuses.
    ("metadata key __proto__", "ST202", "validation_failed", "metadata.__proto__", "cannot be stored"),
    # A rule that depends on stored data: a question's `id` names a question the position has
    # (PRODUCT.md §12); a new question has none.
    ("question id the position does not have", "ST202", "validation_failed", r"^questions\.\d+\.id$", "the position has no question"),
    # A rule across the items of an array that JSON Schema cannot state (`uniqueItems` compares
    # whole items): a rubric's competency keys are unique (PRODUCT.md §12).
    ("duplicate competency key", "ST202", "validation_failed", r"^rubric\.competencies\.\d+\.key$", "duplicate competency key"),
    # A PATCH that changes nothing is refused: at least one of its fields (documented on the
    # operation; the body's fields are each optional).
    ("PATCH /webhooks/{id} with no field", "ST202", "validation_failed", "(root)", "give at least one of"),
    # A webhook URL is stored as the URL parser writes it (non-ASCII percent-encoded), and that
    # form must fit the 2048 characters the document gives it.
    ("webhook URL too long once written as a URL", "ST202", "validation_failed", "url", "once written as a URL"),
    # A rule across the query and the body that a document cannot state: `reason` of
    # DELETE /interviews/{id} is given in one of them, not both (docs/api.md).
    ("DELETE reason in the query and the body", "ST202", "validation_failed", "reason", "given in the query and in the body"),
    # A bound that moves with the clock: an ATS event's `occurredAt` is from 2000 to a day ahead
    # (docs/api.md, "AI tasks and ATS events": events apply in occurredAt order).
    ("ATS occurredAt out of range", "ST202", "validation_failed", "occurredAt", "a time from 2000 to at most a day from now"),
    # A rule that depends on stored data: a review names a version the interview has.
    ("review of an evaluation version the interview does not have", "ST202", "validation_failed", "version", "no such evaluation version"),
    # A reference across fields, and for a PATCH across stored data: a question's competencies
    # are keys of the position's rubric (PRODUCT.md §12).
    ("question competency not in the rubric", "ST202", "validation_failed", r"^questions\.\d+\.competencies\.\d+$", "the rubric has no competency"),
]


def _error(response):
    try:
        return json.loads(response.content).get("error") or {}
    except (ValueError, AttributeError):
        return {}


def _path_matches(expected, path):
    return re.fullmatch(expected, path) is not None if expected.startswith("^") else path == expected


def _record(kind, case):
    with open("known-not-defects.txt", "a", encoding="utf-8") as log:
        log.write(f"{kind}\t{case.operation.label}\n")


@schemathesis.hook
def map_case(context, case):
    """A fresh Idempotency-Key for every request that sends a valid one.

    schemathesis reuses generated header values, and the same key with another body is 422
    idempotency_key_reused by design (PRODUCT.md §6), which made most generated POSTs fail for a
    reason that is not theirs. An invalid key (empty, over 255) is left as it is: the coverage
    phase checks that it is refused.
    """
    headers = case.headers or {}
    key = headers.get("Idempotency-Key")
    if isinstance(key, str) and 1 <= len(key) <= 255:
        headers["Idempotency-Key"] = str(uuid.uuid4())
    return case


@schemathesis.hook
def filter_failure(context, failure, case, response):
    # An empty query parameter (`?updatedAfter=`) counts as absent (docs/api.md, "Lists"): a
    # schema-violating request accepted because of it is that documented rule.
    if failure.code == "ST201" and 200 <= response.status_code < 300 and any(v == "" for v in (case.query or {}).values()):
        _record("empty query parameter counts as absent", case)
        return False
    error = _error(response)
    details = error.get("details") or []
    for kind, check, code, path, text in KNOWN:
        if failure.code != check or error.get("code") != code:
            continue
        if path is None:
            if text not in error.get("message", ""):
                continue
        # Every detail must be this known rule: a refusal that also names another field is not it.
        elif not (details and all(_path_matches(path, d.get("path") or "") and text in d.get("message", "") for d in details)):
            continue
        _record(kind, case)
        return False
    return True
