// The QGS console's one script: live updates over server-sent events (/ui/events).
// Every page works without it. Text from the server is put into the page with textContent
// only; the one link it makes is the task's console path, checked to be one.
(function () {
  "use strict";
  var body = document.body;
  var page = body.dataset.page;

  // Times: the server writes <time datetime="ISO" title="... UTC">the UTC time</time> (it
  // reads well without this script); here the text becomes "3 min ago", the title keeps the
  // exact UTC time, and every 30 s the words are brought up to date.
  function ago(iso) {
    var then = Date.parse(iso);
    if (isNaN(then)) {
      return null;
    }
    var s = Math.max(0, Math.round((Date.now() - then) / 1000));
    if (s < 10) {
      return "just now";
    }
    if (s < 60) {
      return s + " s ago";
    }
    if (s < 3600) {
      return Math.floor(s / 60) + " min ago";
    }
    if (s < 86400) {
      var m = Math.floor((s % 3600) / 60);
      return Math.floor(s / 3600) + " h" + (m ? " " + m + " min" : "") + " ago";
    }
    var h = Math.floor((s % 86400) / 3600);
    return Math.floor(s / 86400) + " d" + (h ? " " + h + " h" : "") + " ago";
  }

  function utc(iso) {
    var d = new Date(iso);
    return isNaN(d.getTime()) ? "" : d.toISOString().slice(0, 19).replace("T", " ") + " UTC";
  }

  function relative(el) {
    var words = ago(el.getAttribute("datetime"));
    if (words !== null) {
      el.textContent = words;
      el.title = utc(el.getAttribute("datetime"));
      el.dataset.relative = "yes";
    }
  }

  function stamp(iso) {
    var el = document.createElement("time");
    el.setAttribute("datetime", iso);
    el.textContent = utc(iso);
    relative(el);
    return el;
  }

  function refreshTimes() {
    // A time shown beside its age in words stays exact (data-exact: "waiting 5 min (decided
    // 2025-01-31 14:05:09 UTC)"), not "5 min ago" twice.
    document.querySelectorAll("time[datetime]:not([data-exact])").forEach(relative);
  }
  refreshTimes();
  window.setInterval(refreshTimes, 30000);

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
    var when = cell(tr, line.decided_at ? "" : "not yet", "when");
    if (line.decided_at) {
      when.appendChild(stamp(line.decided_at));
    }
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
    cap(tbody);
    body.dataset.updates = String(Number(body.dataset.updates || "0") + 1);
  }

  // The live list keeps at most data-max-rows rows (the server's LIVE_ROWS_MAX): with
  // thousands of live tasks an open tab would otherwise grow without bound. The oldest rows
  // go, and the page says how many, with a link to reload (the server's newest page).
  var hiddenRows = 0;

  function cap(tbody) {
    var table = document.getElementById("live-table");
    var max = Number(table && table.dataset.maxRows);
    if (!max || max < 1) {
      return;
    }
    while (tbody.rows.length > max) {
      tbody.deleteRow(tbody.rows.length - 1);
      hiddenRows += 1;
    }
    var box = document.getElementById("live-hidden");
    if (!box || hiddenRows === 0) {
      return;
    }
    box.textContent = hiddenRows + (hiddenRows === 1 ? " older row" : " older rows") +
      " hidden (the list keeps the newest " + max + "): ";
    var link = document.createElement("a");
    link.href = location.pathname + location.search;
    link.textContent = "reload to page";
    box.appendChild(link);
    box.hidden = false;
    body.dataset.hiddenRows = String(hiddenRows);
  }

  // The inbox drops a task approved or rejected elsewhere (the CLI, the API, another tab):
  // the stream, filtered to tasks awaiting a person, says "gone" when one no longer is.
  function dropFromInbox(id) {
    var dropped = false;
    document.querySelectorAll("article.inbox-item, #inbox-more tbody tr").forEach(function (el) {
      if (el.dataset.taskId === id) {
        el.remove();
        dropped = true;
      }
    });
    if (!dropped) {
      return;
    }
    var left = document.querySelectorAll("article.inbox-item").length +
      document.querySelectorAll("#inbox-more tbody tr").length;
    var count = document.getElementById("inbox-count");
    if (count) {
      count.textContent = String(left);
    }
    document.title = document.title.replace(/\(\d+\)/, "(" + left + ")");
    var more = document.getElementById("inbox-more");
    if (more && !more.querySelector("tbody tr")) {
      more.hidden = true;
    }
    var empty = document.getElementById("inbox-empty");
    if (empty && left === 0) {
      empty.hidden = false;
    }
    body.dataset.dropped = String(Number(body.dataset.dropped || "0") + 1);
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
    var id = JSON.parse(event.data).id;
    if (page === "inbox") {
      dropFromInbox(id);
      return;
    }
    var old = rowOf(id);
    if (old) {
      old.remove();
    }
  });
  source.addEventListener("task", function (event) {
    var line = JSON.parse(event.data);
    if (page === "live") {
      upsert(line);
      return;
    }
    if (line.outcome !== "awaiting_approval") {
      dropFromInbox(line.id);
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
