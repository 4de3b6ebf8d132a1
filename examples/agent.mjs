// A small agent in JavaScript using QGS over HTTP: Node's built-in fetch, no npm packages.
// It starts a task, submits a round, long-polls the decision, and checks a tool call before
// running it, printing what it got. Needs QGS_URL (e.g. http://127.0.0.1:8080) and QGS_KEY (from
// `qgs keys create`). tests/integration/test_agent_js.py runs this file against a real server.
//
//   QGS_URL=http://127.0.0.1:8080 QGS_KEY=qgs_... node examples/agent.mjs

// The address without its trailing slashes: "http://host:8080/" + "/v1/tasks" would be a 404.
const base = (process.env.QGS_URL || "").replace(/\/+$/, "");
const key = process.env.QGS_KEY;
if (!base || !key) {
  console.error("set QGS_URL and QGS_KEY (make a key with `qgs keys create --principal NAME`)");
  process.exit(2);
}

// One call of the API; a problem document (RFC 9457) becomes an error naming its detail and fix.
async function qgs(method, path, body) {
  const response = await fetch(base + path, {
    method,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) {
    const fixes = (data.errors || []).map((e) => e.fix).filter(Boolean).join("; ");
    throw new Error(`${method} ${path}: ${response.status} ${data.title}: ${data.detail} (${fixes})`);
  }
  return { status: response.status, data };
}

// Wait for the decision: each request long-polls up to 30 s; 202 means not yet, ask again.
async function waitForDecision(submissionId, timeoutS = 120) {
  const deadline = Date.now() + timeoutS * 1000;
  while (Date.now() < deadline) {
    const { status, data } = await qgs("GET", `/v1/submissions/${submissionId}/decision?wait_s=30`);
    if (status === 200) return data;
    console.log(`not decided yet: ${data.detail}`);
  }
  throw new Error(`no decision on ${submissionId} within ${timeoutS} s`);
}

const task = (await qgs("POST", "/v1/tasks", { request: "write an article about AI", agent: "js-agent" })).data;
console.log(`task ${task.id}: ${task.task_type}/${task.complexity}`);

const { constraints } = (await qgs("GET", `/v1/tasks/${task.id}/constraints`)).data;
console.log(`constraints: ${constraints.split("\n").length} lines`);

const round = { deliverable: "# AI\n\nAn article about AI, written by a JavaScript agent.", final: true };
const sub = (await qgs("POST", `/v1/tasks/${task.id}/rounds`, round)).data;
console.log(`submission ${sub.submission_id}`);

const decided = await waitForDecision(sub.submission_id);
console.log(`decision: ${decided.decision.kind} (score ${decided.decision.score}, woken by ${decided.woken_by})`);

const weather = {
  type: "function",
  function: {
    name: "get_weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};
for (const [label, args] of [["Paris", { city: "Paris" }], ["no city", {}]]) {
  const call = { id: "c1", type: "function", function: { name: "get_weather", arguments: JSON.stringify(args) } };
  const report = (await qgs("POST", "/v1/tool-calls/check", { call, tools: [weather] })).data;
  const refused = report.layers.find((layer) => layer.status === "fail");
  console.log(
    `tool call (${label}) allowed: ${report.allowed}` + (refused ? ` (refused by ${refused.name})` : ""),
  );
}
