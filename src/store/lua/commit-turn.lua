--[[
  Commits a call's turn: while the call's lock holds the token, applies the writes of the turn's
  history (when their guards hold), writes the session, releases the lock and files the call in
  the idle index (or takes it out), in one step. Everything or nothing. The release is published on
  the lock's channel (named as the lock) for those waiting.

  Input:
    KEYS[1]    the call's lock
    KEYS[2]    the call's session
    KEYS[3]    the idle index (the session's key again when there is none)
    KEYS[4..]  the keys of the history's writes
    ARGV[1]    lock token
    ARGV[2]    the session
    ARGV[3]    the session's ttl in ms
    ARGV[4]    the idle index: '' untouched | 'z' file the call | 'r' take it out
    ARGV[5]    the call's member in the idle index
    ARGV[6]    when the call falls idle, ms since epoch (with 'z')
    ARGV[7..]  the history's guards and writes in atomic.lua's encoding (KEYS indexes count from 1)

  Output:
    0 committed; -1 the lock does not hold the token; n > 0 the history's guard n failed (nothing written)
]]
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
local failed = apply_encoded(7)
if failed ~= 0 then return failed end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', KEYS[1], '')
if ARGV[4] == 'z' then redis.call('ZADD', KEYS[3], ARGV[6], ARGV[5])
elseif ARGV[4] == 'r' then redis.call('ZREM', KEYS[3], ARGV[5]) end
return 0
