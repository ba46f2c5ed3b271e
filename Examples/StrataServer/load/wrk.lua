-- The requests of load.sh, and one line of results for it to read.
--   MODE=read:  GET /authors/:id (an author and their books), random authors
--   MODE=write: POST /authors/:id/books (a new book), random authors
local authors = tonumber(os.getenv("AUTHORS") or "100")
local mode = os.getenv("MODE") or "read"

-- Each wrk thread has its own Lua state: seed each differently.
local thread_count = 0
function setup(thread)
    thread_count = thread_count + 1
    thread:set("seed", thread_count)
end

function init(args)
    math.randomseed(os.time() + (seed or 0))
end

function request()
    local id = math.random(1, authors)
    if mode == "write" then
        return wrk.format("POST", "/authors/" .. id .. "/books",
            { ["Content-Type"] = "application/json" }, '{"title":"Load test","year":2025}')
    end
    return wrk.format("GET", "/authors/" .. id)
end

-- RESULT <requests/s> <requests> <errors> <p50 ms> <p99 ms>
function done(summary, latency, requests)
    local e = summary.errors
    local errors = e.connect + e.read + e.write + e.timeout + e.status
    io.write(string.format("RESULT %.0f %d %d %.2f %.2f\n",
        summary.requests / (summary.duration / 1e6), summary.requests, errors,
        latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
