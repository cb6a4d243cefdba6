// node sarif-schema-check.cjs SCHEMA FILE: validates FILE against the SARIF
// 2.1.0 JSON schema SCHEMA (draft-04) with Ajv, every error listed. Exit 0
// valid, 1 invalid. Used by scripts/validate-reports.sh, which sets NODE_PATH
// to the validators' node_modules.
"use strict";
const fs = require("fs");
const Ajv = require("ajv-draft-04");
const addFormats = require("ajv-formats");

const [schemaPath, file] = process.argv.slice(2);
const schema = JSON.parse(fs.readFileSync(schemaPath, "utf8"));
delete schema.id;  // its own address; nothing is fetched
// unicodeRegExp off: the schema's "language" pattern has a stray "]" that a
// unicode-mode RegExp rejects (plain JavaScript RegExps accept it).
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(schema);
let log;
try {
  log = JSON.parse(fs.readFileSync(file, "utf8"));
} catch (e) {
  console.log(`${file}: not JSON: ${e.message}`);
  process.exit(1);
}
if (validate(log)) process.exit(0);
for (const e of validate.errors)
  console.log(`${file}: ${e.instancePath || "/"}: ${e.message}` +
              (e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ""));
process.exit(1);
