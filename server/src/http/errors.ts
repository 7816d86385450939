import { messages } from '@huiyun/contract';

/** A refusal with a Chinese message for the caller. Anything else thrown is a bug: logged, never sent. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(message: string, statusCode = 400) {
    super(message);
    this.statusCode = statusCode;
  }
}

export const unauthorized = (message: string = messages.common.sessionExpired) => new AppError(message, 401);
export const forbidden = (message: string = messages.common.forbidden) => new AppError(message, 403);
export const notFound = (message: string = messages.common.notFoundRecord) => new AppError(message, 404);
export const conflict = (message: string) => new AppError(message, 409);
