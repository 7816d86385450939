import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

// PostgreSQL: the counters that every report of a task and of an owner adds to — the task's sent total,
// its carrier split, failNum and doneNum (completing the task when doneNum reaches totalNum), the
// owner's totals and the owner's row of the day — in a function the report statement calls
// (modules/sending/devices/report-postgres.ts). Reports queue on those rows; one that waited for a row another
// report changed re-checks it (EvalPlanQual), and PostgreSQL then sets up every subplan of the
// statement doing the update again: the report's ~20 CTEs when the update was one of them, a
// one-row UPDATE here. SQLite has one writer and
// keeps its report as statements.
//
// Answers whether this call completed the task (brought doneNum to totalNum). 2 is TaskStatus.completed.
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`
    create function sync_count_final(
      p_task integer, p_sent integer, p_mobile integer, p_unicom integer, p_telecom integer, p_other integer,
      p_failed integer, p_now bigint, p_day varchar
    ) returns boolean language plpgsql as $$
    declare
      v_owner integer;
      v_done integer;
      v_total integer;
    begin
      if p_sent + p_failed = 0 then
        return false;
      end if;
      update sync_task set
        "totalSendNum" = "totalSendNum" + p_sent, smcount = smcount + p_mobile, sucount = sucount + p_unicom,
        stcount = stcount + p_telecom, socount = socount + p_other, "failNum" = "failNum" + p_failed,
        "doneNum" = "doneNum" + p_sent + p_failed,
        "taskStatus" = case when "doneNum" + p_sent + p_failed >= "totalNum" then 2 else "taskStatus" end,
        "editTime" = case when "doneNum" + p_sent + p_failed >= "totalNum" then p_now else "editTime" end
      where "taskId" = p_task
      returning "userId", "doneNum", "totalNum" into v_owner, v_done, v_total;
      if not found then
        return false;
      end if;
      if p_sent > 0 then
        update sys_user set
          "totalSendNum" = "totalSendNum" + p_sent, smcount = smcount + p_mobile, sucount = sucount + p_unicom,
          stcount = stcount + p_telecom, socount = socount + p_other,
          "sendNum" = "sendNum" + p_sent, "hisTotalSendNum" = "hisTotalSendNum" + p_sent
        where "userId" = v_owner;
        insert into sync_send_daily ("userId", "day", "sendCount") values (v_owner, p_day, p_sent)
        on conflict ("userId", "day") do update set "sendCount" = sync_send_daily."sendCount" + excluded."sendCount";
      end if;
      return v_done >= v_total and v_done - p_sent - p_failed < v_total;
    end
    $$
  `.execute(db);
}
