-- Wait (up to a minute: a hang guard, not a speed check) for the server's diagnostics; write them out.
local buf = vim.api.nvim_get_current_buf()
vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local out = io.open(os.getenv("INPLACE_LINT_NVIM_RESULT"), "w")
out:write("version " .. tostring(vim.version().major) .. "." .. tostring(vim.version().minor) .. "\n")
for _, d in ipairs(vim.diagnostic.get(buf)) do
  out:write(string.format("%d:%d %s %s\n", d.lnum + 1, d.col + 1, tostring(d.source), d.message))
end
out:close()
vim.cmd("qall!")
