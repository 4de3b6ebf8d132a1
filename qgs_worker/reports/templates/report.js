// The QGS HTML report's page script: plots, a paged, sortable, filterable task table and a
// drill-down built on demand. Every text from the report goes in with textContent (never as
// markup), and no element gets a URL from the data.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("qgs-data").textContent);
  var rows = data.rows;
  var tasks = data.tasks;
  var SEVERITY_ORDER = { P0: 0, P1: 1, P2: 2, P3: 3, P4: 4, "": 5 };
  var state = { text: "", decision: "", type: "", severity: "", key: null, dir: 1, page: 0, open: -1 };
  rows.forEach(function (row, i) { row.index = i; });

  // el("td", {class: "x"}, "text", childNode, ...): an element whose string children are text nodes.
  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function drawPlots() {
    Object.keys(data.plots).forEach(function (id) {
      var fig = data.plots[id];
      Plotly.newPlot(id, fig.data, fig.layout, { displaylogo: false, displayModeBar: false, responsive: true });
    });
  }

  function fillSelect(id, values) {
    var select = document.getElementById(id);
    values.forEach(function (v) { select.appendChild(el("option", { value: v }, v)); });
  }

  function distinct(field) {
    var seen = {};
    rows.forEach(function (r) { if (r[field]) seen[r[field]] = true; });
    return Object.keys(seen).sort();
  }

  function sortValue(row, key) {
    if (key === "severity") return SEVERITY_ORDER[row.severity];
    if (key === "p0p1") return row.p0 * 100000 + row.p1;
    if (key === "scores") return row.scores.length ? row.scores[row.scores.length - 1] : -1;
    if (key === "risk") return row.risk;
    return String(row[key] || "").toLowerCase();
  }

  function matches(row) {
    if (state.decision && row.decision !== state.decision) return false;
    if (state.type && row.task_type !== state.type) return false;
    if (state.severity && SEVERITY_ORDER[row.severity] > SEVERITY_ORDER[state.severity]) return false;
    if (!state.text) return true;
    var hay = (row.id + " " + row.request + " " + row.source + " " + row.transcript_id).toLowerCase();
    return hay.indexOf(state.text) !== -1;
  }

  function visibleRows() {
    var out = rows.filter(matches);
    if (state.key) {
      var key = state.key, dir = state.dir;
      out.sort(function (a, b) {
        var x = sortValue(a, key), y = sortValue(b, key);
        return x < y ? -dir : x > y ? dir : a.index - b.index;
      });
    }
    return out;
  }

  function renderTable() {
    var shown = visibleRows();
    var size = data.page_rows;
    var pages = Math.max(1, Math.ceil(shown.length / size));
    state.page = Math.min(state.page, pages - 1);
    var start = state.page * size;
    var body = document.querySelector("#task-table tbody");
    body.replaceChildren.apply(body, shown.slice(start, start + size).map(function (r) {
      var tr = el("tr", { "data-index": String(r.index) },
        el("td", { class: "id" }, r.id),
        el("td", { class: "d-" + r.decision }, r.decision),
        el("td", {}, r.task_type + "/" + r.complexity + (r.escalated ? " \u2191" : "")),
        el("td", { class: "sev-" + r.severity }, r.severity || "\u2014"),
        el("td", {}, r.p0 + "/" + r.p1),
        el("td", {}, String(r.risk)),
        el("td", {}, r.scores.length ? r.scores.join(" \u2192 ") : "\u2014"),
        el("td", { class: "mono" }, r.source),
        el("td", { class: "mono" }, r.transcript_id),
        el("td", { class: "request" }, r.request));
      if (r.index === state.open) tr.className = "open";
      return tr;
    }));
    var filtered = shown.length === rows.length ? "" : " (filtered from " + rows.length + ")";
    document.getElementById("count").textContent = shown.length + " tasks" + filtered;
    document.getElementById("page").textContent = shown.length
      ? "rows " + (start + 1) + "\u2013" + Math.min(start + size, shown.length) + " of " + shown.length + ", page " + (state.page + 1) + " of " + pages
      : "no task matches";
    document.getElementById("prev").disabled = state.page === 0;
    document.getElementById("next").disabled = state.page >= pages - 1;
    document.querySelectorAll("#task-table th").forEach(function (th) {
      var key = th.getAttribute("data-key");
      if (key === state.key) th.setAttribute("aria-sort", state.dir > 0 ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    });
  }

  function list(items, empty) {
    if (!items || !items.length) return el("p", { class: "muted" }, empty);
    return el.apply(null, ["ul", {}].concat(items.map(function (x) { return el("li", {}, x); })));
  }

  function facts(pairs) {
    var dl = el("dl", { class: "facts" });
    pairs.forEach(function (p) {
      if (p[1] === null || p[1] === undefined || p[1] === "") return;
      dl.appendChild(el("dt", {}, p[0]));
      dl.appendChild(el("dd", {}, String(p[1])));
    });
    return dl;
  }

  function dimensionsTable(dims) {
    if (!dims || !dims.length) return el("p", { class: "muted" }, "no dimension scores");
    var table = el("table", { class: "dimensions" },
      el("thead", {}, el("tr", {}, el("th", {}, "dimension"), el("th", {}, "score"), el("th", {}, "issues"))));
    var body = el("tbody", {});
    dims.forEach(function (d) {
      body.appendChild(el("tr", {}, el("td", {}, d.name), el("td", {}, String(d.score)),
        el("td", {}, d.issues.length ? d.issues.join("; ") : "\u2014")));
    });
    table.appendChild(body);
    return table;
  }

  function roundView(task, r, isLast) {
    var details = el("details", { class: "round" });
    if (isLast) details.open = true;
    var head = "round " + r.number + (r.final ? " (final)" : "") + ": " + r.status +
      (r.score !== null ? ", score " + r.score + " " + r.verdict : "") +
      (r.decision ? ", " + r.decision : "") + (r.risk ? ", risk " + r.risk : "");
    details.appendChild(el("summary", {}, head));
    var detailed = "deliverable" in r;
    details.appendChild(facts([
      ["answers the user turn", r.turn], ["judge", r.judge], ["review status", r.review_status],
      ["review error", r.review_error], ["reused review", r.reused_from],
      ["warnings", r.warnings.join("; ")], ["round error", r.error],
      ["tokens", r.prompt_tokens || r.completion_tokens ? r.prompt_tokens + " prompt, " + r.completion_tokens + " completion" : null],
    ]));
    details.appendChild(el("h3", {}, "Deliverable"));
    if (detailed) {
      details.appendChild(el("pre", { class: "deliverable" }, r.deliverable));
      if (r.deliverable_cut) details.appendChild(el("p", { class: "muted" }, r.deliverable_cut + " more characters not shown"));
    } else {
      details.appendChild(el("p", { class: "muted" }, "not in this report (qgs report --format html has it)"));
    }
    if (detailed && r.review_status) {
      details.appendChild(el("h3", {}, "Review"));
      details.appendChild(el("p", { class: "summary" }, r.summary || "(no summary)"));
      details.appendChild(dimensionsTable(r.dimensions));
      details.appendChild(el("h3", {}, "must_fix"));
      details.appendChild(list(r.must_fix, "nothing must be fixed"));
    }
    var findings = task.findings.filter(function (f) { return f.round === r.number; });
    details.appendChild(el("h3", {}, "Findings (" + findings.length + ")"));
    if (!findings.length) details.appendChild(el("p", { class: "muted" }, "none"));
    findings.forEach(function (f) {
      details.appendChild(el("div", { class: "finding" },
        el("b", { class: "sev-" + f.severity }, f.severity), " " + f.category + " (" + f.role + ") at " + f.location + ": ",
        el("span", { class: "finding-title" }, f.title)));
      if (f.evidence) details.appendChild(el("pre", { class: "evidence" }, f.evidence));
    });
    if (r.audit_runs.length) {
      details.appendChild(el("h3", {}, "Audit roles"));
      details.appendChild(list(r.audit_runs.map(function (a) {
        return a.role + " " + a.status + (a.status === "ok" ? " (" + a.findings + " findings, " + Math.round(a.duration_ms) + " ms)" : ": " + (a.error || "no reason stored"));
      })));
    }
    if (r.decision) {
      details.appendChild(el("h3", {}, "Decision"));
      details.appendChild(el("p", { class: "decision" }, el("b", { class: "d-" + r.decision }, r.decision),
        detailed && r.decision_reason ? ": " + r.decision_reason : ""));
      if (detailed && r.suggestions.length) details.appendChild(list(r.suggestions));
    }
    return details;
  }

  // "round 2", "rounds 2 and 4", "rounds 1, 2 and 4" (report_replan.rounds_words).
  function roundsWords(numbers) {
    if (numbers.length < 2) return numbers.length ? "round " + numbers[0] : "";
    return "rounds " + numbers.slice(0, -1).join(", ") + " and " + numbers[numbers.length - 1];
  }

  // A force_deliver's replan: the loop stopped without a pass; this goes back to the planner.
  function replanView(p) {
    var box = el("div", { class: "replan" }, el("h3", {}, "Back to the planner"),
      el("p", {}, p.advice));
    var close = p.close_rounds.length ? "; within the noise of it: " + roundsWords(p.close_rounds) : "";
    box.appendChild(facts([
      ["stopped", p.termination + (p.detail ? " (" + p.detail + ")" : "")],
      ["scores", p.rounds.map(function (n, i) { return "round " + n + ": " + p.scores[i]; }).join(", ") +
        " (delivered: round " + p.best_round + close + ")"],
    ]));
    box.appendChild(el("h3", {}, "Criteria never met"));
    box.appendChild(list(p.unmet_criteria.map(function (c) {
      return c.source === "rubric"
        ? c.criterion + " (best " + c.best_score + ", " + roundsWords(c.rounds) + ")" + (c.requirement ? ": " + c.requirement : "")
        : c.criterion + " (the task's criterion, named in " + roundsWords(c.rounds) + ")";
    }), "none: every criterion was met in some round"));
    box.appendChild(el("h3", {}, "must_fix that kept coming back"));
    box.appendChild(list(p.recurring_must_fix.map(function (f) {
      return f.item + " (" + f.count + " rounds: " + f.rounds.join(", ") + ")";
    }), "none came back"));
    return box;
  }

  function openTask(index) {
    var task = tasks[index];
    state.open = index;
    var section = document.getElementById("detail");
    section.hidden = false;
    document.getElementById("detail-title").textContent = "Task " + task.id;
    var body = document.getElementById("detail-body");
    var d = task.decision;
    var parts = [
      el("p", { class: "request" }, task.request),
      facts([
        ["type", task.task_type + "/" + task.complexity + " (classified by " + task.classification_source + ")"],
        ["escalated", task.escalated ? task.escalation_reason || "yes" : null],
        ["source", task.source_file ? task.source_file + ":" + task.line : null],
        ["transcript", task.transcript_id], ["agent", task.agent], ["agent model", task.agent_model],
        ["decision", d ? d.outcome + (d.outcome !== d.kind ? " (" + d.kind + ")" : "") + " at round " + d.round : "none yet"],
        ["reason", d ? d.termination || d.reason : null], ["best round", d ? d.best_round : null],
        ["risk the gate weighed", d ? d.risk : null], ["risk of all findings", task.risk],
        ["approvals", task.approvals.map(function (a) {
          return "round " + a.round + " " + (a.approved ? "approved" : "rejected") + " by " + a.by + (a.note ? ": " + a.note : "");
        }).join("; ")],
      ]),
    ];
    if (d && d.replan) parts.push(replanView(d.replan));
    if (task.scores.length > 1) parts.push(el("div", { id: "detail-plot", class: "plot" }));
    task.rounds.forEach(function (r, i) { parts.push(roundView(task, r, i === task.rounds.length - 1)); });
    body.replaceChildren.apply(body, parts);
    if (task.scores.length > 1) {
      var xs = task.rounds.filter(function (r) { return r.score !== null; }).map(function (r) { return r.number; });
      Plotly.newPlot("detail-plot", [{ x: xs, y: task.scores, mode: "lines+markers", type: "scatter", name: "score" }],
        { title: { text: "score by round" }, height: 260, margin: { l: 40, r: 10, t: 40, b: 40 },
          xaxis: { dtick: 1 }, yaxis: { range: [0, 102] } }, { displaylogo: false, responsive: true });
    }
    renderTable();
    section.scrollIntoView();
  }

  function bind() {
    var text = document.getElementById("f-text");
    text.addEventListener("input", function () { state.text = text.value.trim().toLowerCase(); state.page = 0; renderTable(); });
    [["f-decision", "decision"], ["f-type", "type"], ["f-severity", "severity"]].forEach(function (p) {
      var select = document.getElementById(p[0]);
      select.addEventListener("change", function () { state[p[1]] = select.value; state.page = 0; renderTable(); });
    });
    document.querySelectorAll("#task-table th").forEach(function (th) {
      th.addEventListener("click", function () {
        var key = th.getAttribute("data-key");
        state.dir = state.key === key ? -state.dir : 1;
        state.key = key;
        renderTable();
      });
    });
    document.getElementById("prev").addEventListener("click", function () { state.page -= 1; renderTable(); });
    document.getElementById("next").addEventListener("click", function () { state.page += 1; renderTable(); });
    document.querySelector("#task-table tbody").addEventListener("click", function (event) {
      var tr = event.target.closest("tr");
      if (tr) openTask(Number(tr.getAttribute("data-index")));
    });
  }

  fillSelect("f-decision", distinct("decision"));
  fillSelect("f-type", distinct("task_type"));
  fillSelect("f-severity", ["P0", "P1", "P2", "P3", "P4"]);
  bind();
  renderTable();
  drawPlots();
  document.body.setAttribute("data-ready", "true");
})();
