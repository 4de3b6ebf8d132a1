#!/bin/sh
# QGS over HTTP with curl and jq: start a task, submit a round, long-poll its decision, check a
# tool call. Needs QGS_URL (e.g. http://127.0.0.1:8080) and QGS_KEY (from `qgs keys create`).
# tests/integration/test_api.py runs this very file against a real server.
set -eu
AUTH="Authorization: Bearer $QGS_KEY"

# 1. Start a task: QGS classifies the request (here GENERATE/COMPLEX).
TASK=$(curl -sS --fail-with-body -H "$AUTH" -H 'Content-Type: application/json' \
  -d '{"request": "write an article about AI", "agent": "curl-agent"}' \
  "$QGS_URL/v1/tasks" | jq -r .id)
echo "task $TASK"

# 2. The constraints to add to the agent's prompt.
curl -sS --fail-with-body -H "$AUTH" "$QGS_URL/v1/tasks/$TASK/constraints" | jq -r .constraints

# 3. Submit a round: 202 with the submission id, at once.
SUB=$(curl -sS --fail-with-body -H "$AUTH" -H 'Content-Type: application/json' \
  -d '{"deliverable": "# AI\n\nAn article about AI.", "final": true}' \
  "$QGS_URL/v1/tasks/$TASK/rounds" | jq -r .submission_id)
echo "submission $SUB"

# 4. Long-poll the decision (up to 30 s; 200 once decided, 202 if not yet).
curl -sS --fail-with-body -H "$AUTH" "$QGS_URL/v1/submissions/$SUB/decision?wait_s=30" \
  | jq -r '"decision: " + .decision.kind'

# 5. Check a tool call before running it (the same JSON as `qgs check-tool --format json`).
curl -sS --fail-with-body -H "$AUTH" -H 'Content-Type: application/json' -d '{
    "call": {"id": "c1", "type": "function",
             "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}},
    "tools": [{"type": "function", "function": {"name": "get_weather",
               "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                              "required": ["city"]}}}]
  }' "$QGS_URL/v1/tool-calls/check" | jq -r '"tool call allowed: " + (.allowed | tostring)'
