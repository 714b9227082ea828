--[[
  Increments a counter and sets its TTL when this increment created it.

  Input:
    KEYS[1]  the counter
    ARGV[1]  increment
    ARGV[2]  ttl in ms (0: none)

  Output:
    the counter's new value
]]
local v = redis.call('INCRBY', KEYS[1], ARGV[1])
if tonumber(ARGV[2]) > 0 and v == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return v
