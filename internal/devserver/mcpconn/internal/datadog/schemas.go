package datadog

// The tools' schemas, written by hand: property order is the order of the
// generated command's flags and help, so it is chosen deliberately (the
// filters first, most used first; paging last).

const listMonitorsSchema = `{
  "type": "object",
  "properties": {
    "query": {
      "type": "string",
      "description": "Only monitors whose name or query contains this text (case-insensitive), such as service:api."
    },
    "tags": {
      "type": "array",
      "items": {"type": "string"},
      "description": "Only monitors that carry every one of these tags, such as env:prod or team:commerce."
    },
    "status": {
      "type": "string",
      "enum": ["OK", "Alert", "Warn", "No Data"],
      "description": "Only monitors in this state."
    },
    "page": {
      "type": "object",
      "properties": {
        "size": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20,
          "description": "Monitors per page."
        },
        "cursor": {
          "type": "string",
          "description": "Where the page starts: the id of the last monitor of the previous page. The result's _meta.nextCursor carries it when more monitors match."
        }
      },
      "additionalProperties": false
    }
  },
  "additionalProperties": false
}`

const getMonitorSchema = `{
  "type": "object",
  "properties": {
    "id": {
      "type": "integer",
      "description": "The monitor's id."
    }
  },
  "required": ["id"],
  "additionalProperties": false
}`

const muteMonitorSchema = `{
  "type": "object",
  "properties": {
    "id": {
      "type": "integer",
      "description": "The monitor's id."
    },
    "end": {
      "type": "string",
      "format": "date-time",
      "description": "When the mute ends, an RFC 3339 time such as 2026-12-01T09:00:00Z. Without it the monitor stays muted."
    }
  },
  "required": ["id"],
  "additionalProperties": false
}`

// monitorSchema is the output schema of get_monitor and mute_monitor.
const monitorSchema = `{
  "type": "object",
  "properties": {
    "id": {"type": "integer"},
    "name": {"type": "string"},
    "status": {"type": "string", "enum": ["OK", "Alert", "Warn", "No Data"]},
    "type": {"type": "string"},
    "query": {"type": "string"},
    "tags": {"type": "array", "items": {"type": "string"}},
    "muted": {"type": "boolean"},
    "mutedUntil": {"type": ["string", "null"], "format": "date-time"},
    "updatedAt": {"type": "string", "format": "date-time"}
  },
  "required": ["id", "name", "status", "type", "query", "tags", "muted", "mutedUntil", "updatedAt"]
}`
