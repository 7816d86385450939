import {
  DEVICE_API_PREFIX, TERMINAL_PREFIX, aisleGridCreate, aisleGridQuery, aisleRestock, aisleSave, aisleStatusRequest,
  authCodeIdRequest, authCodeListQuery, authCodeRecharge, authCodeSave, blacklistAdd, blacklistDelete, blacklistListQuery,
  blacklistUpload, deptListQuery, deptSave, deviceActivateRequest, deviceDeliveryRequest, deviceFileQuery, deviceHeartbeatRequest, deviceListQuery,
  deviceRepliesRequest, deviceReportRequest, downloadFileQuery, exportTaskQuery, forceLogoutRequest, idsRequest, loginLogListQuery, loginRequest,
  machineIdRequest, machineListQuery, machineOptionsQuery, machineSave, machineStatusRequest, moduleIdParams, moduleNodesQuery,
  moduleSave, onlineListQuery, operLogListQuery, orderDetailRequest, orderListQuery, orderRefundRequest, passwordChangeRequest,
  payAlarmListQuery, payConfigCheckRequest, payConfigListQuery, payConfigSave, replyListQuery, permissionListQuery, permissionSave, reconcileDiffListQuery,
  reconcileHandleRequest, reconcileRunListQuery, reconcileRunRequest, roleIdParams, roleListQuery, rolePermissionListParams,
  rolePermissionSave, roleRightSave, roleSave, salesChartsQuery, taskIdRequest, taskListQuery, taskQrRequest, taskSave,
  taskStatusChange, taskTestSave, taskUserIdRequest, taskUserSave, taskUserStatisticsQuery, terminalConfigChoicesQuery,
  terminalConfigListQuery, terminalConfigSave, terminalCreateOrderSchema, terminalDispenseSchema, terminalHeartbeatSchema,
  terminalMachineQuery, terminalOrderStatusSchema, uploadFilesFields, uploadTaskDataRequest, userChangeDeptRequest,
  userCodeListQuery, userDeptSaveRequest, userDeptTreeParams, userIdParams, userIdRequest, userListQuery, userLockRequest, userNameParams,
  userSave, variableListQuery, variableSave,
} from '@huiyun/contract';
import * as r from '@huiyun/contract/responses';
import type { z } from 'zod';
import { NOTIFY_BODY_ROUTE, NOTIFY_CONFIG_ROUTE, NOTIFY_ROUTE, REFUND_NOTIFY_ROUTE } from '../../pay/gateways/notify-paths.ts';
import { SIM_PAGE_PATH } from '../../pay/gateways/simulator/page.ts';
import { data, gatewayAck, html, items, list, message, numbersText, storedFile, xlsx, type Answer, type Refusal } from './answers.ts';

// The one table of what each API route reads and answers: its JSON body, query string and path as the
// contract's zod schemas its handler parses, and its answer as the contract's answer schema
// (@huiyun/contract/responses) inside the envelope (answers.ts). The OpenAPI document (openapi.ts) is
// generated from it and app.declaredRoutes; api-docs.test.ts fails when a route is missing here, an entry
// names no route, or an answer schema has no name in the contract.

export type RouteDoc = {
  /** The area (modules/<area>/) the route belongs to: the document's tag. */
  tag: string;
  body?: z.ZodType;
  query?: z.ZodType;
  /** Path parameters (:id); without it each is documented as a string. */
  params?: z.ZodType;
  /** What the schemas cannot say (a multipart upload, a gateway's own format). */
  note?: string;
  /** The body is a multipart/form-data file upload (field `file`) instead of JSON. */
  upload?: true;
  /** What a success answers (answers.ts). */
  answer: Answer;
  /** Refusals beyond those its access and input imply (openapi.ts refusalsOf): 409, 429, 502 … */
  refuses?: Refusal[];
  /** Answers while the process runs, whatever its dependencies (/livez): no 503. */
  live?: true;
};

const GATEWAY_NOTE = '支付网关的异步通知：请求体为该网关自己的签名格式，按原文验签，不是本系统的 JSON';

export const routeDocs: Record<string, RouteDoc> = {
  'POST /api/User/list': { tag: 'user', body: userListQuery, answer: list(r.userRow) },
  'POST /api/User/export': { tag: 'user', body: userListQuery, answer: xlsx },
  'POST /api/User/save': { tag: 'user', body: userSave, answer: data(r.userSaveAnswer) },
  'DELETE /api/User/delete': { tag: 'user', query: idsRequest, answer: message },
  'GET /api/User/lock': { tag: 'user', query: userLockRequest, answer: message },
  'POST /api/User/pwd': { tag: 'user', body: userIdRequest, answer: data(r.userPasswordReset) },
  'POST /api/User/change/dept': { tag: 'user', body: userChangeDeptRequest, answer: message },
  'GET /api/UserDept/deptTree/:parentId': { tag: 'user', params: userDeptTreeParams, answer: items(r.grantNode) },
  'GET /api/UserDept/tree/:userId': { tag: 'user', params: userIdParams, answer: items(r.grantNode) },
  'POST /api/UserDept/save': { tag: 'user', body: userDeptSaveRequest, answer: message },
  'GET /api/User/expireToken/:userName': { tag: 'user', params: userNameParams, answer: message },
  'GET /api/User/flashCache/:userName': { tag: 'user', params: userNameParams, answer: message },
  [`GET ${SIM_PAGE_PATH}:orderNo`]: { tag: 'gateway', note: '模拟支付网关的付款页（HTML），仅用于演示与测试', answer: html },
  [`POST ${SIM_PAGE_PATH}:orderNo`]: { tag: 'gateway', note: '模拟支付网关付款页的表单提交（HTML 表单）', answer: html },
  [`POST ${TERMINAL_PREFIX}/order/create`]: { tag: 'terminal', body: terminalCreateOrderSchema, answer: data(r.terminalOrderCreated), refuses: [409, 502] },
  [`POST ${TERMINAL_PREFIX}/order/status`]: { tag: 'terminal', body: terminalOrderStatusSchema, answer: data(r.terminalOrderStatus), refuses: [404] },
  [`POST ${TERMINAL_PREFIX}/order/dispense`]: { tag: 'terminal', body: terminalDispenseSchema, answer: data(r.terminalOrderStatus), refuses: [404, 409] },
  [`POST ${TERMINAL_PREFIX}/heartbeat`]: { tag: 'terminal', body: terminalHeartbeatSchema, answer: data(r.terminalHeartbeatAnswer) },
  'POST /sync/queryAuthCodeList': { tag: 'authcode', body: authCodeListQuery, answer: list(r.authCodeRow) },
  'POST /sync/exportAuthCodeList': { tag: 'authcode', body: authCodeListQuery, answer: xlsx },
  'POST /sync/queryTaskUserList': { tag: 'authcode', answer: items(r.taskUserChoice) },
  'GET /sync/queryUserCodeList': { tag: 'authcode', query: userCodeListQuery, answer: items(r.userDevice) },
  'POST /sync/queryUserCodeList': { tag: 'authcode', body: userCodeListQuery, answer: items(r.userDevice) },
  'POST /sync/saveAuthCode': { tag: 'authcode', body: authCodeSave, answer: data(r.syncSaved.authCode) },
  'POST /sync/recAuthCode': { tag: 'authcode', body: authCodeRecharge, answer: message },
  'POST /sync/deleteAuthCode': { tag: 'authcode', body: authCodeIdRequest, answer: message },
  'POST /sync/login': { tag: 'auth', body: loginRequest, answer: data(r.loginAnswer), refuses: [429] },
  'POST /sync/logout': { tag: 'auth', answer: message },
  'GET /sync/currentUser': { tag: 'auth', answer: data(r.currentUser) },
  'GET /sync/profile': { tag: 'auth', answer: data(r.userProfile) },
  'POST /sync/update/password': { tag: 'auth', body: passwordChangeRequest, answer: message },
  'GET /sync/queryTaskInfoList': { tag: 'task', query: taskListQuery, answer: list(r.taskRow) },
  'POST /sync/queryTaskInfoList': { tag: 'task', body: taskListQuery, answer: list(r.taskRow) },
  'POST /sync/saveTaskInfo': { tag: 'task', body: taskSave, answer: data(r.syncSaved.task) },
  'POST /sync/pauseStartTaskInfo': { tag: 'task', body: taskStatusChange, answer: message },
  'POST /sync/deleteTaskInfo': { tag: 'task', body: taskIdRequest, answer: message },
  'POST /sync/saveTest': { tag: 'task', body: taskTestSave, answer: message },
  'POST /sync/generateQRCodeImage': { tag: 'task', body: taskQrRequest, answer: data(r.qrImagePath) },
  'POST /sync/uploadTaskData': { tag: 'task', body: uploadTaskDataRequest, answer: data(r.uploadTaskDataResult) },
  'GET /sync/exportTask': { tag: 'task', query: exportTaskQuery, answer: numbersText },
  'POST /sync/exportTask': { tag: 'task', body: exportTaskQuery, answer: numbersText },
  'POST /api/MachineConfig/list': { tag: 'terminal-config', body: terminalConfigListQuery, answer: list(r.terminalConfigRow) },
  'POST /api/MachineConfig/export': { tag: 'terminal-config', body: terminalConfigListQuery, answer: xlsx },
  'POST /api/MachineConfig/machines': { tag: 'terminal-config', body: terminalMachineQuery, answer: items(r.terminalMachineChoice) },
  'POST /api/MachineConfig/configs': { tag: 'terminal-config', body: terminalConfigChoicesQuery, answer: items(r.terminalPayConfigChoice) },
  'POST /api/MachineConfig/save': { tag: 'terminal-config', body: terminalConfigSave, answer: data(r.paySaved.terminalConfig) },
  'DELETE /api/MachineConfig/delete': { tag: 'terminal-config', query: idsRequest, answer: message },
  'POST /api/Machine/list': { tag: 'machine', body: machineListQuery, answer: list(r.machineRow) },
  'POST /api/Machine/export': { tag: 'machine', body: machineListQuery, answer: xlsx },
  'POST /api/Machine/options': { tag: 'machine', body: machineOptionsQuery, answer: items(r.machineOption) },
  'POST /api/Machine/save': { tag: 'machine', body: machineSave, answer: data(r.machineSaved) },
  'DELETE /api/Machine/delete': { tag: 'machine', query: idsRequest, answer: message },
  'POST /api/Machine/status': { tag: 'machine', body: machineStatusRequest, answer: message },
  'POST /api/Machine/resetKey': { tag: 'machine', body: machineIdRequest, answer: data(r.machineKeyAnswer) },
  'POST /api/Aisle/grid': { tag: 'machine', body: aisleGridQuery, answer: data(r.aisleGrid) },
  'POST /api/Aisle/save': { tag: 'machine', body: aisleSave, answer: data(r.aisleSaved) },
  'POST /api/Aisle/createGrid': { tag: 'machine', body: aisleGridCreate, answer: data(r.aisleGridCreated) },
  'POST /api/Aisle/restock': { tag: 'machine', body: aisleRestock, answer: data(r.aislesRestocked) },
  'POST /api/Aisle/status': { tag: 'machine', body: aisleStatusRequest, answer: message },
  'DELETE /api/Aisle/delete': { tag: 'machine', query: idsRequest, answer: message },
  'POST /sync/queryStatisticsTotal': { tag: 'statistics', answer: data(r.statisticsTotals) },
  'POST /sync/queryTaskUserStatisticsList': { tag: 'statistics', body: taskUserStatisticsQuery, answer: list(r.taskUserStatisticsRow) },
  'POST /sync/exportTaskUserStatisticsList': { tag: 'statistics', body: taskUserStatisticsQuery, answer: xlsx },
  'POST /sync/saveTaskUser': { tag: 'statistics', body: taskUserSave, answer: data(r.syncSaved.taskUser) },
  'POST /sync/chearTaskUserTotalSendNum': { tag: 'statistics', body: taskUserIdRequest, answer: message },
  'POST /sync/chearTaskUserSendNum': { tag: 'statistics', body: taskUserIdRequest, answer: message },
  'POST /sync/chearHisTaskUserTotalSendNum': { tag: 'statistics', answer: message },
  'POST /sync/deleteTaskUser': { tag: 'statistics', body: taskUserIdRequest, answer: message },
  'POST /api/Charts/statistics': { tag: 'sales-charts', body: salesChartsQuery, answer: data(r.salesCharts) },
  'POST /api/Charts/options': { tag: 'sales-charts', answer: data(r.salesChartsOptions) },
  'GET /api/SystemMonitor/snapshot': { tag: 'system-monitor', answer: data(r.systemSnapshot) },
  'POST /api/Order/list': { tag: 'order-list', body: orderListQuery, answer: list(r.orderRow) },
  'POST /api/Order/export': { tag: 'order-list', body: orderListQuery, answer: xlsx },
  'POST /api/Order/detail': { tag: 'order-list', body: orderDetailRequest, answer: data(r.orderDetail) },
  'POST /api/Order/refund': { tag: 'order-list', body: orderRefundRequest, answer: data(r.orderRefundResult) },
  'POST /upload/files': {
    tag: 'files', query: uploadFilesFields, upload: true, note: 'multipart/form-data：文件字段 file，kind 也可作为表单字段', answer: items(r.uploadResultItem), refuses: [413, 415],
  },
  'GET /download/file': { tag: 'files', query: downloadFileQuery, answer: storedFile, refuses: [403, 404] },
  'POST /api/Dept/list': { tag: 'dept', body: deptListQuery, answer: list(r.deptRow) },
  'POST /api/Dept/export': { tag: 'dept', body: deptListQuery, answer: xlsx },
  'POST /api/Dept/choices': { tag: 'dept', answer: items(r.deptChoice) },
  'POST /api/Dept/save': { tag: 'dept', body: deptSave, answer: data(r.systemSaved.dept) },
  'GET /api/Dept/delete': { tag: 'dept', query: idsRequest, answer: message },
  'DELETE /api/Dept/delete': { tag: 'dept', query: idsRequest, answer: message },
  'POST /api/Permission/list': { tag: 'permission', body: permissionListQuery, answer: list(r.permissionRow) },
  'POST /api/Permission/export': { tag: 'permission', body: permissionListQuery, answer: xlsx },
  'POST /api/Permission/save': { tag: 'permission', body: permissionSave, answer: data(r.systemSaved.permission) },
  'DELETE /api/Permission/delete': { tag: 'permission', query: idsRequest, answer: message },
  'GET /api/RolePermission/list/:roleId': { tag: 'permission', params: rolePermissionListParams, answer: data(r.permissionIds) },
  'POST /api/RolePermission/save': { tag: 'permission', body: rolePermissionSave, answer: message },
  'POST /api/Module/list': { tag: 'menu', answer: items(r.moduleTreeNode) },
  'POST /api/Module/export': { tag: 'menu', answer: xlsx },
  'POST /api/Module/nodes': { tag: 'menu', body: moduleNodesQuery, answer: list(r.moduleRow) },
  'GET /api/Module/get/:id': { tag: 'menu', params: moduleIdParams, answer: data(r.moduleRow) },
  'POST /api/Module/save': { tag: 'menu', body: moduleSave, answer: data(r.systemSaved.module), refuses: [409] },
  'DELETE /api/Module/delete': { tag: 'menu', query: idsRequest, answer: message },
  'POST /api/OperLog/list': { tag: 'monitor', body: operLogListQuery, answer: list(r.operLogRow) },
  'POST /api/OperLog/export': { tag: 'monitor', body: operLogListQuery, answer: xlsx },
  'POST /api/LoginLog/list': { tag: 'monitor', body: loginLogListQuery, answer: list(r.loginLogRow) },
  'POST /api/LoginLog/export': { tag: 'monitor', body: loginLogListQuery, answer: xlsx },
  'POST /api/Online/list': { tag: 'monitor', body: onlineListQuery, answer: list(r.onlineSession) },
  'POST /api/Online/export': { tag: 'monitor', body: onlineListQuery, answer: xlsx },
  'POST /api/Online/forceLogout': { tag: 'monitor', body: forceLogoutRequest, answer: message },
  'GET /healthz': { tag: 'health', answer: data(r.readiness), refuses: [503] },
  'GET /livez': { tag: 'health', answer: data(r.liveness), live: true },
  'POST /api/Config/list': { tag: 'pay-config', body: payConfigListQuery, answer: list(r.payConfigRow) },
  'POST /api/Config/export': { tag: 'pay-config', body: payConfigListQuery, answer: xlsx },
  'POST /api/Config/save': { tag: 'pay-config', body: payConfigSave, answer: data(r.paySaved.payConfig) },
  'DELETE /api/Config/delete': { tag: 'pay-config', query: idsRequest, answer: message },
  'POST /api/Config/check': { tag: 'pay-config', body: payConfigCheckRequest, answer: data(r.payConfigCheckAnswer) },
  'POST /api/Variable/list': { tag: 'variable', body: variableListQuery, answer: list(r.variableRow) },
  'POST /api/Variable/export': { tag: 'variable', body: variableListQuery, answer: xlsx },
  'POST /api/Variable/save': { tag: 'variable', body: variableSave, answer: data(r.systemSaved.variable) },
  'DELETE /api/Variable/delete': { tag: 'variable', query: idsRequest, answer: message },
  'POST /api/Role/list': { tag: 'role', body: roleListQuery, answer: list(r.roleRow) },
  'POST /api/Role/export': { tag: 'role', body: roleListQuery, answer: xlsx },
  'POST /api/Role/save': { tag: 'role', body: roleSave, answer: data(r.systemSaved.role), refuses: [409] },
  'DELETE /api/Role/delete': { tag: 'role', query: idsRequest, answer: message },
  'GET /api/Role/dropDown/all': { tag: 'role', answer: items(r.roleOption) },
  'GET /api/RoleRight/tree/:roleId': { tag: 'role', params: roleIdParams, answer: items(r.grantNode) },
  'GET /api/RoleRight/grants/:roleId': { tag: 'role', params: roleIdParams, answer: data(r.roleGrantTree) },
  'POST /api/RoleRight/save': { tag: 'role', body: roleRightSave, answer: message },
  'POST /sync/queryBlacklist': { tag: 'blacklist', body: blacklistListQuery, answer: list(r.blacklistRow) },
  'POST /sync/exportBlacklist': { tag: 'blacklist', body: blacklistListQuery, answer: xlsx },
  'POST /sync/saveBlacklist': { tag: 'blacklist', body: blacklistAdd, answer: data(r.blacklistAddResult) },
  'POST /sync/uploadBlacklist': { tag: 'blacklist', body: blacklistUpload, answer: data(r.blacklistAddResult) },
  'POST /sync/deleteBlacklist': { tag: 'blacklist', body: blacklistDelete, answer: data(r.blacklistDeleted) },
  [`POST ${DEVICE_API_PREFIX}/activate`]: { tag: 'device', body: deviceActivateRequest, answer: data(r.deviceActivation), refuses: [429] },
  [`POST ${DEVICE_API_PREFIX}/pull`]: { tag: 'device', answer: data(r.devicePull) },
  [`POST ${DEVICE_API_PREFIX}/report`]: { tag: 'device', body: deviceReportRequest, answer: data(r.deviceReportResult) },
  [`POST ${DEVICE_API_PREFIX}/heartbeat`]: { tag: 'device', body: deviceHeartbeatRequest, answer: data(r.deviceHeartbeatAnswer) },
  [`POST ${DEVICE_API_PREFIX}/delivery`]: { tag: 'device', body: deviceDeliveryRequest, answer: data(r.deviceDeliveryResult) },
  [`GET ${DEVICE_API_PREFIX}/file`]: { tag: 'device', query: deviceFileQuery, answer: storedFile, refuses: [403, 404] },
  'POST /sync/queryDeviceList': { tag: 'device', body: deviceListQuery, answer: list(r.deviceRow) },
  // replies (modules/sending/replies)
  [`POST ${DEVICE_API_PREFIX}/replies`]: { tag: 'reply', body: deviceRepliesRequest, answer: data(r.deviceRepliesResult) },
  'POST /sync/queryReplyList': { tag: 'reply', body: replyListQuery, answer: list(r.replyRow) },
  'POST /sync/exportReplyList': { tag: 'reply', body: replyListQuery, answer: xlsx },
  'POST /api/Reconcile/list': { tag: 'reconcile', body: reconcileRunListQuery, answer: list(r.reconcileRunRow) },
  'POST /api/Reconcile/export': { tag: 'reconcile', body: reconcileRunListQuery, answer: xlsx },
  'POST /api/Reconcile/diffList': { tag: 'reconcile', body: reconcileDiffListQuery, answer: list(r.reconcileDiffRow) },
  'POST /api/Reconcile/diffExport': { tag: 'reconcile', body: reconcileDiffListQuery, answer: xlsx },
  'POST /api/Reconcile/configOptions': { tag: 'reconcile', answer: items(r.reconcileConfigChoice) },
  'POST /api/Reconcile/run': { tag: 'reconcile', body: reconcileRunRequest, answer: data(r.reconcileRunAnswer), refuses: [409] },
  'POST /api/Reconcile/handle': { tag: 'reconcile', body: reconcileHandleRequest, answer: message },
  'POST /api/PayAlarm/list': { tag: 'pay-alarm', body: payAlarmListQuery, answer: list(r.payAlarmRow) },
  'POST /api/PayAlarm/export': { tag: 'pay-alarm', body: payAlarmListQuery, answer: xlsx },
  // payment gateways' notifications: the body is each gateway's own signed format (modules/pay/gateways/<name>/), read raw
  [`POST ${NOTIFY_CONFIG_ROUTE}`]: { tag: 'gateway', note: GATEWAY_NOTE, answer: gatewayAck },
  [`POST ${NOTIFY_ROUTE}`]: { tag: 'gateway', note: GATEWAY_NOTE, answer: gatewayAck },
  [`POST ${REFUND_NOTIFY_ROUTE}`]: { tag: 'gateway', note: GATEWAY_NOTE, answer: gatewayAck },
  [`POST ${NOTIFY_BODY_ROUTE}`]: { tag: 'gateway', note: GATEWAY_NOTE, answer: gatewayAck },
};
