-- Pattern-heavy gsub/gmatch/find over a 400 KB text.
local words = {}
for i = 1, 20000 do words[i] = "word" .. (i % 97) .. " key=" .. i .. ";" end
local text = table.concat(words, " ")
local count = 0
for k, v in text:gmatch("(%a+)=(%d+)") do count = count + #k + (tonumber(v) % 7) end
local replaced, n = text:gsub("%d+", function(d) return "<" .. #d .. ">" end)
local swapped, n2 = text:gsub("(w)(o)", "%2%1")
local found = 0
local pos = 1
while true do
  local s, e = text:find("key=1%d*;", pos)
  if not s then break end
  found = found + 1
  pos = e + 1
end
local trimmed = 0
for line in text:gmatch("[^;]+") do
  local w = line:match("^%s*(.-)%s*$")
  trimmed = trimmed + #w
end
return count + n + n2 + #replaced + #swapped + found + trimmed
