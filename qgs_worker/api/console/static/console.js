// The QGS console's one script: live updates over server-sent events (/ui/events).
// Every page works without it. Text from the server is put into the page with textContent
// only; the one link it makes is the task's console path, checked to be one.
(function () {
  "use strict";
  var body = document.body;
  var page = body.dataset.page;
  if (!window.EventSource || (page !== "live" && page !== "inbox")) {
    return;
  }
  var query = body.dataset.events || "";
  var state = document.getElementById("live-state");
  var source = new EventSource("/ui/events" + (query ? "?" + query : ""));
  var fresh = 0;

  function say(text) {
    if (state) {
      state.textContent = text;
    }
  }

  function notice(text) {
    var box = document.getElementById("live-notice") || state;
    if (!box) {
      return;
    }
    box.textContent = "";
    box.append(text + " ");
    var link = document.createElement("a");
    link.href = location.pathname + location.search;
    link.textContent = "Reload";
    box.append(link);
    box.hidden = false;
  }

  function cell(tr, text, cls) {
    var td = document.createElement("td");
    if (cls) {
      td.className = cls;
    }
    td.textContent = text === null || text === undefined ? "" : String(text);
    tr.appendChild(td);
    return td;
  }

  function rowOf(id) {
    var rows = document.querySelectorAll("#live-table tbody tr");
    for (var i = 0; i < rows.length; i++) {
      if (rows[i].dataset.taskId === id) {
        return rows[i];
      }
    }
    return null;
  }

  function upsert(line) {
    var tbody = document.querySelector("#live-table tbody");
    if (!tbody) {
      return;
    }
    var tr = document.createElement("tr");
    tr.dataset.taskId = line.id;
    tr.className = "fresh";
    cell(tr, line.decided_at ? line.decided_at.replace("T", " ").replace("+00:00", " UTC") : "not yet", "when");
    var idCell = cell(tr, "", "mono");
    var link = document.createElement("a");
    link.textContent = line.id;
    if (typeof line.href === "string" && line.href.indexOf("/ui/tasks/") === 0) {
      link.href = line.href;
    }
    idCell.appendChild(link);
    var outcome = document.createElement("span");
    outcome.className = "o-" + String(line.outcome).replace(/[^a-z_]/g, "");
    outcome.textContent = line.outcome;
    cell(tr, "").appendChild(outcome);
    cell(tr, line.task_type);
    cell(tr, line.score, "num");
    var worst = document.createElement("span");
    worst.className = line.worst ? "sev-" + String(line.worst).replace(/[^A-Z0-9]/g, "") : "";
    worst.textContent = line.worst || "";
    cell(tr, "").appendChild(worst);
    cell(tr, line.agent);
    cell(tr, line.principal || "(in-process)");
    cell(tr, line.request, "request");
    var old = rowOf(line.id);
    if (old) {
      old.remove();
    }
    tbody.insertBefore(tr, tbody.firstChild);
    var empty = document.getElementById("live-empty");
    if (empty) {
      empty.hidden = true;
    }
    body.dataset.updates = String(Number(body.dataset.updates || "0") + 1);
  }

  source.addEventListener("ready", function (event) {
    var data = JSON.parse(event.data);
    body.dataset.live = data.live ? "on" : "off";
    say(data.live ? "Live: decisions appear here as they land." :
      "No decision notifications (no broker): reload to see new decisions.");
  });
  source.addEventListener("error", function () {
    body.dataset.live = "off";
    say("Live updates paused: reconnecting…");
  });
  source.addEventListener("signed-out", function () {
    source.close();
    location.assign("/ui/login");
  });
  source.addEventListener("reset", function () {
    notice("Some updates may have been missed.");
  });
  source.addEventListener("gone", function (event) {
    var old = rowOf(JSON.parse(event.data).id);
    if (old && page === "live") {
      old.remove();
    }
  });
  source.addEventListener("task", function (event) {
    var line = JSON.parse(event.data);
    if (page === "live") {
      upsert(line);
      return;
    }
    var known = false;
    document.querySelectorAll("[data-task-id]").forEach(function (el) {
      known = known || el.dataset.taskId === line.id;
    });
    if (line.outcome === "awaiting_approval" && !known) {
      fresh += 1;
      body.dataset.updates = String(fresh);
      notice(fresh + (fresh === 1 ? " more task awaits" : " more tasks await") + " a person.");
    }
  });
})();
