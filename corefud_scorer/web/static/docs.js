// The API's documentation, drawn from its OpenAPI description with nothing
// fetched from elsewhere.
"use strict";

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function typeOf(schema) {
  if (!schema) return "";
  if (schema.type === "array") return `array of ${typeOf(schema.items)}`;
  let text = schema.format === "binary" ? "file" : schema.type || "";
  if (schema.enum) text += `: ${schema.enum.join(" | ")}`;
  return text;
}

async function draw() {
  const spec = await (await fetch("/openapi.json")).json();
  document.getElementById("version").textContent = spec.info.version;
  const root = document.getElementById("api");
  if (spec.info.description) root.append(el("p", spec.info.description));
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      root.append(el("h2", `${method.toUpperCase()} ${path}`));
      if (op.description || op.summary) root.append(el("p", op.description || op.summary));
      const body = op.requestBody && op.requestBody.content;
      if (body) {
        for (const [kind, content] of Object.entries(body)) {
          root.append(el("p", `Body: ${kind}`, "summary"));
          const table = el("table");
          const head = el("tr");
          for (const h of ["field", "type", "required", "meaning"]) head.append(el("th", h));
          table.append(head);
          const required = content.schema.required || [];
          for (const [name, field] of Object.entries(content.schema.properties || {})) {
            const row = el("tr");
            row.append(el("td", name), el("td", typeOf(field)), el("td", required.includes(name) ? "yes" : ""),
              el("td", field.description || ""));
            table.append(row);
          }
          const scroll = el("div", undefined, "scroll");
          scroll.append(table);
          root.append(scroll);
        }
      }
      const answers = el("ul");
      for (const [status, answer] of Object.entries(op.responses || {})) {
        answers.append(el("li", `${status}: ${answer.description}`));
      }
      root.append(answers);
    }
  }
}

draw();
